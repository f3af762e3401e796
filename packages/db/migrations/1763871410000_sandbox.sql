-- Up Migration

-- The partners' sandbox (issue 40): a key made in test mode books test places. A timeslot keeps a test copy of its
-- capacity's use (test_booked beside booked, against the same capacity): a test booking takes and frees only test
-- places, a live one only live places, each by the same single conditional update. A booking remembers which it is;
-- the walls between the two are in the queries (a test key reads only test bookings, the operator's live views only
-- live ones).
ALTER TABLE api_keys ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE bookings ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE timeslots
  ADD COLUMN test_booked integer NOT NULL DEFAULT 0,
  -- No upper bound: the operator may lower a capacity below the test places taken (test places hold nothing real);
  -- a test reservation still fits only within the capacity.
  ADD CONSTRAINT timeslots_test_booked_not_negative CHECK (test_booked >= 0);

-- A reseller's uuid names one booking per partner and mode: a test booking never collides with (or reveals) a live one.
DROP INDEX bookings_octo_uuid_idx;
CREATE UNIQUE INDEX bookings_octo_uuid_idx ON bookings (partner_id, test, octo_uuid) WHERE octo_uuid IS NOT NULL;
-- The booking worker deletes test bookings older than 30 days.
CREATE INDEX bookings_test_created_idx ON bookings (created_at) WHERE test;

-- The sales report's sums (booking_sales_rollup, kept by this trigger) count live bookings only. A booking's mode never
-- changes, so a test booking is simply never added nor taken out.
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

-- Down Migration
CREATE OR REPLACE FUNCTION bookings_sales_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
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
DROP INDEX bookings_test_created_idx;
DROP INDEX bookings_octo_uuid_idx;
CREATE UNIQUE INDEX bookings_octo_uuid_idx ON bookings (partner_id, octo_uuid) WHERE octo_uuid IS NOT NULL;
ALTER TABLE timeslots DROP CONSTRAINT timeslots_test_booked_not_negative, DROP COLUMN test_booked;
ALTER TABLE bookings DROP COLUMN test;
ALTER TABLE api_keys DROP COLUMN test;
