-- Up Migration

-- An Idempotency-Key belongs to whoever sent it (the partner of an ota key; otherwise the API key or the signed-in
-- user) and to the request it came with (method and concrete path, with the body's hash). Keyed by account, route
-- template and key, a stored answer went to another partner sending the same key, and a cancel's answer to a cancel
-- of another booking (use-cases/src/idempotency.ts).
ALTER TABLE idempotency_keys ADD COLUMN caller text;

-- Answers stored before keep working for the partner that got them: the booking in the answer names its partner, and
-- the reference in a confirm's or cancel's path.
UPDATE idempotency_keys k
   SET caller = 'partner:' || b.partner_id,
       operation = CASE WHEN k.operation = 'POST /api/v2/ota/partner/booking' THEN k.operation
                        ELSE 'POST /api/v2/ota/partner/booking/' || b.reference || substring(k.operation FROM '/[a-z]+$') END
  FROM bookings b
 WHERE k.state = 'done'
   AND k.operation IN ('POST /api/v2/ota/partner/booking',
                       'POST /api/v2/ota/partner/booking/:Reference/confirm',
                       'POST /api/v2/ota/partner/booking/:Reference/cancel')
   AND b.account_id = k.account_id
   AND b.reference = k.response_body::jsonb ->> 'Reference'
   AND b.partner_id IS NOT NULL;
-- The others (claims in flight, sales and usage batches) cannot be given a caller; they would have expired within 24 h.
DELETE FROM idempotency_keys WHERE caller IS NULL;

ALTER TABLE idempotency_keys ALTER COLUMN caller SET NOT NULL;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (account_id, caller, key);

-- Down Migration

DELETE FROM idempotency_keys;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys DROP COLUMN caller;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (account_id, operation, key);
