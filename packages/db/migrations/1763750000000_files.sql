-- Up Migration

-- Files partners upload for waiver answers (a signed waiver, an ID photo). The bytes live in the file store
-- (FILE_STORE: a directory or an S3 bucket) under <account_id>/<id>; this row says whose they are and what they are.
-- A row is 'pending' from the moment the upload is accepted (its size counted against the account's quota) until its
-- bytes are durable in the store, then 'stored'; only a stored file can be referenced, so an upload cut off by a crash
-- leaves nothing a booking could point to. 'deleting': the sweeper is removing it (no longer referenceable).
-- A file is the partner's that uploaded it; a booking that references it keeps it for as long as the booking exists.
-- Unreferenced files are deleted after expires_at (24 h after the upload).
CREATE TABLE files (
  id            uuid PRIMARY KEY,
  account_id    uuid NOT NULL REFERENCES accounts(id),
  partner_id    uuid NOT NULL,
  api_key_id    uuid,
  name          text NOT NULL CHECK (length(name) BETWEEN 1 AND 255),
  content_type  text NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png', 'image/webp')),
  size          bigint NOT NULL CHECK (size > 0),
  sha256        text CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'stored', 'deleting')),
  booking_id    bigint REFERENCES bookings(id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  stored_at     timestamptz,
  expires_at    timestamptz NOT NULL,
  CHECK (status <> 'stored' OR sha256 IS NOT NULL),
  FOREIGN KEY (account_id, partner_id) REFERENCES partners (account_id, id)
);
-- The sweeper's way in: unreferenced files by expiry.
CREATE INDEX files_unreferenced_idx ON files (expires_at) WHERE booking_id IS NULL;
-- A booking's files (the operator's download checks the account; a booking's delete sets booking_id null).
CREATE INDEX files_booking_idx ON files (booking_id) WHERE booking_id IS NOT NULL;

-- Bytes each account's files take (pending ones included), kept by the statements that add and remove files: the
-- quota check is one conditional update of this row, as a timeslot's capacity is, instead of a sum over the files.
CREATE TABLE file_quota_usage (
  account_id  uuid PRIMARY KEY REFERENCES accounts(id),
  bytes       bigint NOT NULL DEFAULT 0 CHECK (bytes >= 0)
);

-- Down Migration
DROP TABLE file_quota_usage;
DROP TABLE files;
