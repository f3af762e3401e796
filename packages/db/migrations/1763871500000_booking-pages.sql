-- Up Migration

-- Each account's online booking page ({base}/book/{slug}): whether it answers, its slug (unique across accounts), the
-- origins allowed to frame it, the note and terms it shows, its locale and how long a hold keeps its places. No row: off.
CREATE TABLE booking_pages (
  account_id     uuid PRIMARY KEY REFERENCES accounts(id),
  enabled        boolean NOT NULL DEFAULT false,
  slug           text UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{1,48}[a-z0-9]$'),
  embed_origins  text[] NOT NULL DEFAULT '{}',
  note           text NOT NULL DEFAULT '',
  terms          text NOT NULL DEFAULT '',
  locale         text NOT NULL DEFAULT 'en-GB',
  hold_minutes   integer NOT NULL DEFAULT 10 CHECK (hold_minutes BETWEEN 1 AND 60),
  updated_at     timestamptz NOT NULL DEFAULT now(),
  CHECK (NOT enabled OR slug IS NOT NULL)
);

-- The customer's key to a booking made on the page: only the SHA-256 of a 256-bit random token is kept, so the table
-- leaks no way in. client_address is the address that took the hold (the live holds an address may have are counted
-- from it). A booking's row goes with the booking.
CREATE TABLE booking_tokens (
  booking_id      bigint PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
  account_id      uuid NOT NULL REFERENCES accounts(id),
  token_hash      bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
  client_address  text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX booking_tokens_address_idx ON booking_tokens (client_address, created_at);

-- A customer acting at the manage link is an actor of the history of its own.
ALTER TABLE booking_history DROP CONSTRAINT booking_history_actor_kind_check;
ALTER TABLE booking_history ADD CONSTRAINT booking_history_actor_kind_check CHECK (actor_kind IN ('partner', 'operator', 'system', 'customer'));

-- A file a customer uploads belongs to the hold it was sent for (no partner): only that booking can take it.
ALTER TABLE files ALTER COLUMN partner_id DROP NOT NULL;
ALTER TABLE files ADD COLUMN hold_booking_id bigint REFERENCES bookings(id) ON DELETE CASCADE;
ALTER TABLE files ADD CONSTRAINT files_uploader_check CHECK (partner_id IS NOT NULL OR hold_booking_id IS NOT NULL);
CREATE INDEX files_hold_booking_idx ON files (hold_booking_id) WHERE hold_booking_id IS NOT NULL;

-- Down Migration
DROP INDEX files_hold_booking_idx;
ALTER TABLE files DROP CONSTRAINT files_uploader_check;
ALTER TABLE files DROP COLUMN hold_booking_id;
DELETE FROM files WHERE partner_id IS NULL;
ALTER TABLE files ALTER COLUMN partner_id SET NOT NULL;
ALTER TABLE booking_history DROP CONSTRAINT booking_history_actor_kind_check;
DELETE FROM booking_history WHERE actor_kind = 'customer';
ALTER TABLE booking_history ADD CONSTRAINT booking_history_actor_kind_check CHECK (actor_kind IN ('partner', 'operator', 'system'));
DROP TABLE booking_tokens;
DROP TABLE booking_pages;
