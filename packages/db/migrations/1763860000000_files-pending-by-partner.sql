-- Up Migration

-- A partner's unfinished uploads, summed at each new upload to keep one partner from holding the account's whole quota
-- with uploads it never finishes (packages/db files.repository.ts reserveFileUpload).
CREATE INDEX files_pending_by_partner_idx ON files (account_id, partner_id) WHERE status = 'pending';

-- Down Migration
DROP INDEX files_pending_by_partner_idx;
