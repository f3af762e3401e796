-- Up Migration

-- Files the desk uploads (issue 39: a photo of a signed paper waiver, an ID scan): a third kind of uploader beside a
-- partner and a customer's hold, the account's operator (a console user, recorded in uploaded_by_user_id, or an admin
-- key, in api_key_id). Such a file answers only the account's bookings, and only when the operator sends the answer
-- (packages/db files.repository.ts findAnswerFiles); partners and the booking page never see it as theirs.
-- Every file has exactly one uploader kind, which the code has always written and the CHECK now says.
ALTER TABLE files ADD COLUMN operator_upload boolean NOT NULL DEFAULT false;
ALTER TABLE files ADD COLUMN uploaded_by_user_id uuid REFERENCES operator_users(id) ON DELETE SET NULL;
ALTER TABLE files DROP CONSTRAINT files_uploader_check;
ALTER TABLE files ADD CONSTRAINT files_uploader_check CHECK (
  num_nonnulls(partner_id, hold_booking_id, nullif(operator_upload, false)) = 1
  AND (uploaded_by_user_id IS NULL OR operator_upload)
);
-- The desk's unfinished uploads, summed at each new one as a partner's are (files-pending-by-partner).
CREATE INDEX files_pending_by_operator_idx ON files (account_id) WHERE status = 'pending' AND operator_upload;

-- Down Migration
DROP INDEX files_pending_by_operator_idx;
ALTER TABLE files DROP CONSTRAINT files_uploader_check;
-- The old schema has no desk uploads: they go (a booking's answer keeps its file's name and FileID, the download then
-- answers 404, as the booking page's did when its migration went down), with their share of the quota. Their bytes
-- stay in the file store.
WITH gone AS (
  DELETE FROM files WHERE operator_upload RETURNING account_id, size
), per_account AS (
  SELECT account_id, sum(size) AS bytes FROM gone GROUP BY account_id
)
UPDATE file_quota_usage q SET bytes = q.bytes - per_account.bytes FROM per_account WHERE q.account_id = per_account.account_id;
ALTER TABLE files DROP COLUMN uploaded_by_user_id;
ALTER TABLE files DROP COLUMN operator_upload;
ALTER TABLE files ADD CONSTRAINT files_uploader_check CHECK (partner_id IS NOT NULL OR hold_booking_id IS NOT NULL);
