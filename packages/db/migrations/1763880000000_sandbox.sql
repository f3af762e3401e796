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

-- Down Migration
DROP INDEX bookings_test_created_idx;
DROP INDEX bookings_octo_uuid_idx;
CREATE UNIQUE INDEX bookings_octo_uuid_idx ON bookings (partner_id, octo_uuid) WHERE octo_uuid IS NOT NULL;
ALTER TABLE timeslots DROP CONSTRAINT timeslots_test_booked_not_negative, DROP COLUMN test_booked;
ALTER TABLE bookings DROP COLUMN test;
ALTER TABLE api_keys DROP COLUMN test;
