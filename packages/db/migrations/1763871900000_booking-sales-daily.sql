-- Up Migration

-- The sales report over a year read booking_sales_rollup's rows of every timeslot of the year: a few per timeslot, so
-- 170,000 rows for an account of a million bookings, near 300 ms. Past days hardly change (a late cancel, a refund),
-- so their sums are folded into one row per day, activity, channel, partner, currency and cancelled-or-not, and the
-- report reads those beside the per-timeslot rows not folded yet (about 30,000 rows for that year instead).
--
-- The per-timeslot rows stay where every booking write adds to them (no new queue: see 1763830000000), and now hold
-- what has not been folded: the booking worker's fold moves a past day's rows into booking_sales_daily (deleting them
-- and adding their sums in one statement), and a later change of such a booking adds its difference as a new
-- per-timeslot row, folded in turn. So daily + per-timeslot is exact at every moment, whatever the fold has done;
-- the fold only decides how many rows a report reads.
CREATE TABLE booking_sales_daily (
  account_id    uuid NOT NULL,
  local_date    date NOT NULL,
  activity_id   bigint NOT NULL,
  channel       text NOT NULL,
  partner_id    uuid,
  currency      char(3) NOT NULL,
  cancelled     boolean NOT NULL,
  bookings      integer NOT NULL,
  participants  integer NOT NULL,
  revenue_minor bigint NOT NULL,
  -- Led by (account_id, local_date): the report's range reads this index.
  CONSTRAINT booking_sales_daily_key UNIQUE NULLS NOT DISTINCT (account_id, local_date, activity_id, channel, partner_id, currency, cancelled)
);

-- The fold finds the past days' rows of every account by date.
CREATE INDEX booking_sales_rollup_date_idx ON booking_sales_rollup (local_date);

-- What a booking's old state took out is now added as a negative part, as the new state's part is added: its
-- per-timeslot row may have been folded away already.
CREATE OR REPLACE FUNCTION bookings_sales_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status IN ('confirmed', 'cancelled') AND NOT OLD.test THEN
    INSERT INTO booking_sales_rollup AS r (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
    VALUES (OLD.account_id, OLD.local_date, OLD.activity_id, OLD.timeslot_id, OLD.channel, OLD.partner_id, OLD.currency, OLD.status = 'cancelled', -1, -OLD.participants, -OLD.total_minor)
    ON CONFLICT ON CONSTRAINT booking_sales_rollup_key DO UPDATE
       SET bookings = r.bookings - 1, participants = r.participants + EXCLUDED.participants, revenue_minor = r.revenue_minor + EXCLUDED.revenue_minor;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status IN ('confirmed', 'cancelled') AND NOT NEW.test THEN
    INSERT INTO booking_sales_rollup AS r (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
    VALUES (NEW.account_id, NEW.local_date, NEW.activity_id, NEW.timeslot_id, NEW.channel, NEW.partner_id, NEW.currency, NEW.status = 'cancelled', 1, NEW.participants, NEW.total_minor)
    ON CONFLICT ON CONSTRAINT booking_sales_rollup_key DO UPDATE
       SET bookings = r.bookings + 1, participants = r.participants + EXCLUDED.participants, revenue_minor = r.revenue_minor + EXCLUDED.revenue_minor;
  END IF;
  RETURN NULL;
END $$;

-- Down Migration

-- The per-timeslot sums again whole: counted from the bookings under a lock that keeps writers out meanwhile.
LOCK TABLE bookings IN SHARE ROW EXCLUSIVE MODE;
CREATE OR REPLACE FUNCTION bookings_sales_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status IN ('confirmed', 'cancelled') AND NOT OLD.test THEN
    UPDATE booking_sales_rollup
       SET bookings = bookings - 1, participants = participants - OLD.participants, revenue_minor = revenue_minor - OLD.total_minor
     WHERE timeslot_id = OLD.timeslot_id AND channel = OLD.channel AND partner_id IS NOT DISTINCT FROM OLD.partner_id
       AND currency = OLD.currency AND cancelled = (OLD.status = 'cancelled');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status IN ('confirmed', 'cancelled') AND NOT NEW.test THEN
    INSERT INTO booking_sales_rollup AS r (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
    VALUES (NEW.account_id, NEW.local_date, NEW.activity_id, NEW.timeslot_id, NEW.channel, NEW.partner_id, NEW.currency, NEW.status = 'cancelled', 1, NEW.participants, NEW.total_minor)
    ON CONFLICT ON CONSTRAINT booking_sales_rollup_key DO UPDATE
       SET bookings = r.bookings + 1, participants = r.participants + EXCLUDED.participants, revenue_minor = r.revenue_minor + EXCLUDED.revenue_minor;
  END IF;
  RETURN NULL;
END $$;
TRUNCATE booking_sales_rollup;
INSERT INTO booking_sales_rollup (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
SELECT account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, status = 'cancelled', count(*), sum(participants), sum(total_minor)
  FROM bookings
 WHERE status IN ('confirmed', 'cancelled') AND NOT test
 GROUP BY account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, status = 'cancelled';
DROP INDEX booking_sales_rollup_date_idx;
DROP TABLE booking_sales_daily;
