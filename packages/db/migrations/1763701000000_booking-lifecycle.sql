-- Up Migration

-- Partners: the OTAs an account sells through. Every ota key belongs to one partner (a partner may hold several keys,
-- so a key can be rotated without losing its bookings); a booking records the partner that made it, and a partner
-- reads and changes only its own bookings.
CREATE TABLE partners (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id  uuid NOT NULL REFERENCES accounts(id),
  name        text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (account_id, id)
);
CREATE UNIQUE INDEX partners_account_name_idx ON partners (account_id, lower(name));

ALTER TABLE api_keys ADD COLUMN partner_id uuid;
ALTER TABLE api_keys ADD FOREIGN KEY (account_id, partner_id) REFERENCES partners (account_id, id);

-- Each existing ota key gets a partner of its own, named after the key (suffixed when two keys share a name).
INSERT INTO partners (id, account_id, name)
SELECT k.id, k.account_id,
       CASE WHEN count(*) OVER (PARTITION BY k.account_id, lower(k.name)) > 1 THEN k.name || ' (' || k.prefix || ')' ELSE k.name END
  FROM api_keys k WHERE 'ota' = ANY (k.scopes);
UPDATE api_keys SET partner_id = id WHERE 'ota' = ANY (scopes);

-- Booking lifecycle: on_hold -> confirmed | cancelled | expired; confirmed -> cancelled. An on_hold booking's places are
-- taken until expires_at; from that instant they are free, whether or not the sweeper has marked it expired yet.
ALTER TABLE bookings DROP CONSTRAINT bookings_status_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_status_check CHECK (status IN ('on_hold', 'confirmed', 'cancelled', 'expired'));
ALTER TABLE bookings
  ADD COLUMN partner_id uuid,
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN cancelled_at timestamptz,
  ADD COLUMN cancellation_reason text,
  ADD COLUMN updated_at timestamptz,
  -- The transaction of the latest change: sync pages in (change_xid, id) order and serves only changes older than every
  -- transaction still running, so a change committed late never lands behind a page a client already has.
  ADD COLUMN change_xid xid8;
UPDATE bookings b SET partner_id = k.partner_id FROM api_keys k WHERE k.id = b.api_key_id AND b.channel = 'ota';
UPDATE bookings SET updated_at = created_at, change_xid = pg_current_xact_id();
ALTER TABLE bookings
  ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now(),
  ALTER COLUMN change_xid SET NOT NULL, ALTER COLUMN change_xid SET DEFAULT pg_current_xact_id();
ALTER TABLE bookings ADD FOREIGN KEY (account_id, partner_id) REFERENCES partners (account_id, id);

-- Every change of a booking, whoever makes it, moves it in the sync order.
CREATE FUNCTION bookings_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
CREATE TRIGGER bookings_touch BEFORE UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION bookings_touch();

CREATE INDEX bookings_partner_sync_idx ON bookings (partner_id, change_xid, id) WHERE partner_id IS NOT NULL;
CREATE INDEX bookings_partner_updated_idx ON bookings (partner_id, updated_at) WHERE partner_id IS NOT NULL;
-- Holds are few and short-lived: availability and the reservation find the expired ones of a timeslot here.
CREATE INDEX bookings_holds_idx ON bookings (timeslot_id, expires_at) WHERE status = 'on_hold';
CREATE INDEX bookings_hold_expiry_idx ON bookings (expires_at) WHERE status = 'on_hold';

-- How long before the start a partner may still cancel (0: until the start).
ALTER TABLE activities ADD COLUMN cancellation_cutoff_minutes integer NOT NULL DEFAULT 0 CHECK (cancellation_cutoff_minutes >= 0);

-- Down Migration

ALTER TABLE activities DROP COLUMN cancellation_cutoff_minutes;
DROP INDEX bookings_hold_expiry_idx;
DROP INDEX bookings_holds_idx;
DROP INDEX bookings_partner_updated_idx;
DROP INDEX bookings_partner_sync_idx;
DROP TRIGGER bookings_touch ON bookings;
DROP FUNCTION bookings_touch();
ALTER TABLE bookings DROP COLUMN change_xid, DROP COLUMN updated_at, DROP COLUMN cancellation_reason, DROP COLUMN cancelled_at,
  DROP COLUMN expires_at, DROP COLUMN partner_id;
ALTER TABLE bookings DROP CONSTRAINT bookings_status_check;
ALTER TABLE bookings ADD CONSTRAINT bookings_status_check CHECK (status IN ('confirmed', 'cancelled'));
ALTER TABLE api_keys DROP COLUMN partner_id;
DROP TABLE partners;
