-- Up Migration

-- A booking keeps the price it was sold at: the activity's price per participant and its currency when the booking
-- was made, whatever the activity costs later. The total follows the party size. Bookings made before this migration
-- get the activity's price of the day the migration ran, marked 'migration' (their price at sale was not recorded).
ALTER TABLE bookings
  ADD COLUMN unit_price_minor bigint CHECK (unit_price_minor >= 0),
  ADD COLUMN currency char(3),
  ADD COLUMN price_source text NOT NULL DEFAULT 'sale' CHECK (price_source IN ('sale', 'migration')),
  -- The operator's note on a booking ("allergic to nuts", "arrives late").
  ADD COLUMN note text CHECK (length(note) <= 2000),
  -- When the booking's party was checked in at the activity; null while it has not arrived.
  ADD COLUMN checked_in_at timestamptz,
  -- The console user who sold a point-of-sale booking; null when a key (a partner, a script) made it.
  ADD COLUMN created_by_user_id uuid;

-- Recording a price is not a change of the booking: it must not move every booking in the partners' sync feed.
ALTER TABLE bookings DISABLE TRIGGER bookings_touch;
UPDATE bookings b SET unit_price_minor = a.price_minor, currency = a.currency, price_source = 'migration'
  FROM activities a WHERE a.id = b.activity_id;
ALTER TABLE bookings ENABLE TRIGGER bookings_touch;

-- Every writer gets the price right, as with local_date: a booking written without one takes its activity's current
-- price, and a booking moved to another activity takes that activity's (the old activity's price says nothing of it).
-- A move within the activity, or a change of the party size, keeps the unit price it was sold at.
CREATE FUNCTION bookings_price() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.unit_price_minor IS NOT NULL THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.activity_id = OLD.activity_id THEN
    RETURN NEW;
  END IF;
  SELECT price_minor, currency INTO NEW.unit_price_minor, NEW.currency FROM activities WHERE id = NEW.activity_id;
  IF TG_OP = 'UPDATE' THEN
    NEW.price_source := 'sale';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER bookings_price BEFORE INSERT OR UPDATE OF activity_id ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_price();
ALTER TABLE bookings ALTER COLUMN unit_price_minor SET NOT NULL, ALTER COLUMN currency SET NOT NULL;
ALTER TABLE bookings ADD COLUMN total_minor bigint GENERATED ALWAYS AS (unit_price_minor * participants) STORED;

-- Every change made to a booking after it was made, with who made it and why. The creation (and a hold's expiry) is
-- read from the booking itself, so the hot paths that make and expire bookings write nothing more.
CREATE TABLE booking_history (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id  uuid NOT NULL,
  booking_id  bigint NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
  at          timestamptz NOT NULL DEFAULT now(),
  action      text NOT NULL CHECK (action IN ('confirmed', 'rescheduled', 'edited', 'checked_in', 'check_in_undone', 'cancelled', 'extended')),
  -- partner: a partner's key (partner_id, api_key_id); operator: a console user (user_id) or an admin key
  -- (api_key_id); system: the service itself.
  actor_kind  text NOT NULL CHECK (actor_kind IN ('partner', 'operator', 'system')),
  partner_id  uuid,
  api_key_id  uuid,
  user_id     uuid,
  reason      text,
  -- What changed: { "Member": { "From": ..., "To": ... } }.
  changes     jsonb NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX booking_history_booking_idx ON booking_history (booking_id, id);

-- Down Migration
DROP TABLE booking_history;
DROP TRIGGER bookings_price ON bookings;
DROP FUNCTION bookings_price();
ALTER TABLE bookings DROP COLUMN total_minor, DROP COLUMN created_by_user_id, DROP COLUMN checked_in_at, DROP COLUMN note,
  DROP COLUMN price_source, DROP COLUMN currency, DROP COLUMN unit_price_minor;
