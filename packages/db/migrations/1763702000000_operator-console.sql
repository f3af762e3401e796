-- Up Migration

-- The console's people: each belongs to one account. E-mail addresses are unique across accounts because signing in
-- names only the address; they are stored lower-cased so that case never makes two users.
CREATE TABLE operator_users (
  id             uuid PRIMARY KEY,
  account_id     uuid NOT NULL REFERENCES accounts(id),
  email          text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  -- scrypt$N$r$p$salt$hash, base64url parts: the parameters travel with the hash so they can be raised later.
  password_hash  text NOT NULL,
  role           text NOT NULL CHECK (role IN ('owner', 'staff')),
  disabled_at    timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_users_account_idx ON operator_users (account_id);

-- Only the SHA-256 of a session id is stored: a copy of this table does not let anyone sign in.
CREATE TABLE operator_sessions (
  id_hash       bytea PRIMARY KEY,
  user_id       uuid NOT NULL REFERENCES operator_users(id) ON DELETE CASCADE,
  account_id    uuid NOT NULL REFERENCES accounts(id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  -- The absolute end; the idle timeout is measured from last_seen_at by the reader.
  expires_at    timestamptz NOT NULL
);
CREATE INDEX operator_sessions_user_idx ON operator_sessions (user_id);
CREATE INDEX operator_sessions_expires_idx ON operator_sessions (expires_at);

-- The keys page shows when a key was last used; written at most once a minute per key by the verifier.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

-- The console's bookings list is keyset-paged newest first (by id) over every channel.
CREATE INDEX bookings_account_id_idx ON bookings (account_id, id DESC);

-- The console's free-text search (reference, payment reference, customer e-mail and name) as one text, indexed by
-- trigrams so that a search does not read every booking of the account. The extension goes to public with its
-- operator class named there, so that schemas that share a database (tests) share one copy of it.
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
CREATE INDEX bookings_search_idx ON bookings USING gin ((
  reference || ' ' || coalesce(payment_reference, '') || ' ' || coalesce(customer->>'Email', '') || ' ' ||
  coalesce(customer->>'FirstName', '') || ' ' || coalesce(customer->>'LastName', '')
) public.gin_trgm_ops);

-- Down Migration
DROP INDEX IF EXISTS bookings_search_idx;
DROP INDEX IF EXISTS bookings_account_id_idx;
ALTER TABLE api_keys DROP COLUMN IF EXISTS last_used_at;
DROP TABLE IF EXISTS operator_sessions;
DROP TABLE IF EXISTS operator_users;
