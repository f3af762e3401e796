-- Up Migration

-- The sales report sums a year of an account's bookings by currency, channel, partner and activity: this index holds
-- every column it reads, so a year of a million bookings is an index-only scan of its range, not a million heap reads.
CREATE INDEX bookings_sales_idx ON bookings (account_id, local_date)
  INCLUDE (status, currency, channel, partner_id, activity_id, participants, total_minor);

-- Down Migration
DROP INDEX bookings_sales_idx;
