-- Up Migration

-- OCTO (issue 26). The supplier's contact comes from the account; an activity may be open from-to each day (a
-- climbing gym, a museum: OCTO's OPENING_HOURS products), sold as one admission timeslot per day; an OCTO booking keeps
-- the reseller's uuid (unique per partner, so a repeated reservation answers the booking it made) and its unit items
-- (one per participant: [{ "uuid", "unitId" }]).
ALTER TABLE accounts
  ADD COLUMN email text CHECK (length(email) BETWEEN 3 AND 254),
  ADD COLUMN phone text CHECK (length(phone) BETWEEN 3 AND 40),
  ADD COLUMN website text CHECK (length(website) BETWEEN 4 AND 2000);

ALTER TABLE activities
  ADD COLUMN opening_time time(0),
  ADD COLUMN closing_time time(0),
  ADD CONSTRAINT activities_opening_hours_check
    CHECK ((opening_time IS NULL) = (closing_time IS NULL) AND (opening_time IS NULL OR closing_time > opening_time));

ALTER TABLE bookings
  ADD COLUMN octo_uuid uuid,
  ADD COLUMN octo_unit_items jsonb CHECK (jsonb_typeof(octo_unit_items) = 'array');
CREATE UNIQUE INDEX bookings_octo_uuid_idx ON bookings (partner_id, octo_uuid) WHERE octo_uuid IS NOT NULL;
-- OCTO's booking list by resellerReference (the partner's payment reference).
CREATE INDEX bookings_partner_payment_reference_idx ON bookings (partner_id, payment_reference) WHERE payment_reference IS NOT NULL;

-- Down Migration

DROP INDEX bookings_partner_payment_reference_idx;
DROP INDEX bookings_octo_uuid_idx;
ALTER TABLE bookings DROP COLUMN octo_unit_items, DROP COLUMN octo_uuid;
ALTER TABLE activities DROP CONSTRAINT activities_opening_hours_check, DROP COLUMN closing_time, DROP COLUMN opening_time;
ALTER TABLE accounts DROP COLUMN website, DROP COLUMN phone, DROP COLUMN email;
