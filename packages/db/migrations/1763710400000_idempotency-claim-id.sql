-- Up Migration

-- The id of the request that holds a claim, drawn by that request before it claims: a request whose claim statement
-- failed as the server went away may have claimed the key nonetheless (the commit made, the answer lost), and its id
-- is what lets it release that claim once the server is back, and never another request's
-- (use-cases/src/idempotency.ts). Claims made before have none and are released as abandoned after a minute.
ALTER TABLE idempotency_keys ADD COLUMN claim_id uuid;

-- Down Migration

ALTER TABLE idempotency_keys DROP COLUMN claim_id;
