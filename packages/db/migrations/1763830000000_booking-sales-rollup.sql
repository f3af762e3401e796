-- Up Migration

-- The sales report sums a year of an account's bookings. Read from the bookings, that is a million rows for a busy
-- account (300 ms and more, even as an index-only scan). This table holds the same sums per timeslot, channel,
-- partner, currency and cancelled-or-not, kept by triggers in the transaction of every write to a booking, whoever
-- writes it (the APIs, the sweepers, the CLI). So the report reads a few rows per timeslot and is exact at once.
--
-- Per timeslot, not per day: a write that changes a booking's sums has already locked its timeslot's row (to take or
-- free places) or touches one booking of it (a confirm), so the sums' row adds no queue between the bookings of
-- different timeslots. A per-day row would queue every booking of an activity's day behind one lock until commit.
-- Rows whose bookings drop to zero stay (the report skips them); a timeslot has at most a few.
CREATE TABLE booking_sales_rollup (
  account_id    uuid NOT NULL,
  local_date    date NOT NULL,
  activity_id   bigint NOT NULL,
  timeslot_id   bigint NOT NULL,
  channel       text NOT NULL,
  partner_id    uuid,
  currency      char(3) NOT NULL,
  cancelled     boolean NOT NULL,
  bookings      integer NOT NULL,
  participants  integer NOT NULL,
  revenue_minor bigint NOT NULL,
  CONSTRAINT booking_sales_rollup_key UNIQUE NULLS NOT DISTINCT (timeslot_id, channel, partner_id, currency, cancelled)
) WITH (fillfactor = 50);
-- The sums change in place (no indexed column changes), so the free room keeps those updates HOT.
CREATE INDEX booking_sales_rollup_report_idx ON booking_sales_rollup (account_id, local_date);

-- A booking counts in the report while it is confirmed or cancelled (a hold or an expired hold is no sale). Whatever
-- changes, the old row's part is taken out and the new row's part put in.
CREATE FUNCTION bookings_sales_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status IN ('confirmed', 'cancelled') THEN
    UPDATE booking_sales_rollup
       SET bookings = bookings - 1, participants = participants - OLD.participants, revenue_minor = revenue_minor - OLD.total_minor
     WHERE timeslot_id = OLD.timeslot_id AND channel = OLD.channel AND partner_id IS NOT DISTINCT FROM OLD.partner_id
       AND currency = OLD.currency AND cancelled = (OLD.status = 'cancelled');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status IN ('confirmed', 'cancelled') THEN
    INSERT INTO booking_sales_rollup AS r (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
    VALUES (NEW.account_id, NEW.local_date, NEW.activity_id, NEW.timeslot_id, NEW.channel, NEW.partner_id, NEW.currency, NEW.status = 'cancelled', 1, NEW.participants, NEW.total_minor)
    ON CONFLICT ON CONSTRAINT booking_sales_rollup_key DO UPDATE
       SET bookings = r.bookings + 1, participants = r.participants + EXCLUDED.participants, revenue_minor = r.revenue_minor + EXCLUDED.revenue_minor;
  END IF;
  RETURN NULL;
END $$;

-- No write can slip between the sums below and the triggers that keep them.
LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE;

CREATE TRIGGER bookings_sales_rollup_insert_delete AFTER INSERT OR DELETE ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_sales_rollup();
-- A check-in, a note or a customer's new e-mail changes no sum: those updates skip the function.
CREATE TRIGGER bookings_sales_rollup_update AFTER UPDATE ON bookings
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status OR OLD.timeslot_id IS DISTINCT FROM NEW.timeslot_id
    OR OLD.participants IS DISTINCT FROM NEW.participants OR OLD.total_minor IS DISTINCT FROM NEW.total_minor
    OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.channel IS DISTINCT FROM NEW.channel
    OR OLD.partner_id IS DISTINCT FROM NEW.partner_id
  )
  EXECUTE FUNCTION bookings_sales_rollup();

INSERT INTO booking_sales_rollup (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
SELECT account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, status = 'cancelled', count(*), sum(participants), sum(total_minor)
  FROM bookings
 WHERE status IN ('confirmed', 'cancelled')
 GROUP BY account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, status = 'cancelled';

-- The report no longer reads the bookings; this index only cost every booking write.
DROP INDEX bookings_sales_idx;

-- Down Migration
CREATE INDEX bookings_sales_idx ON bookings (account_id, local_date)
  INCLUDE (status, currency, channel, partner_id, activity_id, participants, total_minor);
DROP TRIGGER bookings_sales_rollup_update ON bookings;
DROP TRIGGER bookings_sales_rollup_insert_delete ON bookings;
DROP FUNCTION bookings_sales_rollup();
DROP TABLE booking_sales_rollup;
