-- Up Migration

-- Every e-mail of an online or point-of-sale booking carries a manage link, and the mail worker mints a token of its
-- own for each message it renders (only its SHA-256 kept, like the page's): the clear token exists nowhere but in the
-- message. A booking thus has several tokens (the page's, one per e-mail), each opening that booking alone.
-- client_address is the page's hold-taker; a token minted for an e-mail has none and counts towards no address's holds.
ALTER TABLE booking_tokens DROP CONSTRAINT booking_tokens_pkey;
ALTER TABLE booking_tokens ALTER COLUMN client_address DROP NOT NULL;
CREATE INDEX booking_tokens_booking_idx ON booking_tokens (booking_id);

-- Down Migration
DROP INDEX booking_tokens_booking_idx;
DELETE FROM booking_tokens WHERE client_address IS NULL;
-- A booking of the page keeps its first token (the page's) when the key comes back.
DELETE FROM booking_tokens k USING booking_tokens older
 WHERE older.booking_id = k.booking_id AND older.created_at < k.created_at;
ALTER TABLE booking_tokens ALTER COLUMN client_address SET NOT NULL;
ALTER TABLE booking_tokens ADD PRIMARY KEY (booking_id);
