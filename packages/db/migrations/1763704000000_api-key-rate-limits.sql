-- Up Migration

-- A key's own rate limit, set by an operator (admin CLI set-key-limit); null for both means the defaults of its scopes.
ALTER TABLE api_keys
  ADD COLUMN rate_limit_per_second integer CHECK (rate_limit_per_second > 0),
  ADD COLUMN rate_limit_burst      integer,
  ADD CONSTRAINT api_keys_rate_limit_check CHECK (
    (rate_limit_per_second IS NULL AND rate_limit_burst IS NULL)
    OR (rate_limit_per_second IS NOT NULL AND rate_limit_burst >= rate_limit_per_second)
  );

-- Down Migration

ALTER TABLE api_keys DROP CONSTRAINT api_keys_rate_limit_check, DROP COLUMN rate_limit_burst, DROP COLUMN rate_limit_per_second;
