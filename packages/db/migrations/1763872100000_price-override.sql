-- Up Migration

-- A price set by hand at the desk (issue 39, payment at the desk): the total charged for the party, when it differs
-- from the unit price as sold times the party, and why (1 to 200 characters, always with it). The total the reports,
-- the CSV and the sales rollup read (total_minor) becomes the price actually charged; it is a generated column, so it
-- is made again over the new expression (PostgreSQL 15 cannot change one's expression), and the rollup's update
-- trigger, whose condition reads it, with it. Existing bookings have no override: their total is the same number, and
-- the rollup's sums stay right (a rewrite fires no row trigger).
ALTER TABLE bookings
  ADD COLUMN price_override_minor bigint CHECK (price_override_minor >= 0),
  ADD COLUMN price_reason text CHECK (char_length(price_reason) BETWEEN 1 AND 200),
  ADD CONSTRAINT bookings_price_override_has_reason CHECK ((price_override_minor IS NULL) = (price_reason IS NULL));

DROP TRIGGER bookings_sales_rollup_update ON bookings;
ALTER TABLE bookings DROP COLUMN total_minor;
ALTER TABLE bookings ADD COLUMN total_minor bigint GENERATED ALWAYS AS (coalesce(price_override_minor, unit_price_minor * participants)) STORED;
CREATE TRIGGER bookings_sales_rollup_update AFTER UPDATE ON bookings
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status OR OLD.timeslot_id IS DISTINCT FROM NEW.timeslot_id
    OR OLD.participants IS DISTINCT FROM NEW.participants OR OLD.total_minor IS DISTINCT FROM NEW.total_minor
    OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.channel IS DISTINCT FROM NEW.channel
    OR OLD.partner_id IS DISTINCT FROM NEW.partner_id
  )
  EXECUTE FUNCTION bookings_sales_rollup();

-- The sale's price set by hand is a row of its own in the booking's history (an edit's is among the edit's changes).
ALTER TABLE booking_history DROP CONSTRAINT booking_history_action_check;
ALTER TABLE booking_history ADD CONSTRAINT booking_history_action_check
  CHECK (action IN ('confirmed', 'rescheduled', 'edited', 'checked_in', 'check_in_undone', 'cancelled', 'extended', 'repriced'));

-- A price set by hand is audited (who, from what to what, why): subject the booking.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed', 'invitation.created', 'invitation.resent', 'invitation.revoked', 'invitation.accepted',
  'password.reset', 'booking.price_changed'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (
  subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page', 'mail_settings', 'partner', 'invitation', 'booking'));

-- Down Migration
DELETE FROM audit_entries WHERE action = 'booking.price_changed';
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (
  subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page', 'mail_settings', 'partner', 'invitation'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed', 'invitation.created', 'invitation.resent', 'invitation.revoked', 'invitation.accepted',
  'password.reset'));
DELETE FROM booking_history WHERE action = 'repriced';
ALTER TABLE booking_history DROP CONSTRAINT booking_history_action_check;
ALTER TABLE booking_history ADD CONSTRAINT booking_history_action_check
  CHECK (action IN ('confirmed', 'rescheduled', 'edited', 'checked_in', 'check_in_undone', 'cancelled', 'extended'));
DROP TRIGGER bookings_sales_rollup_update ON bookings;
ALTER TABLE bookings DROP COLUMN total_minor;
ALTER TABLE bookings ADD COLUMN total_minor bigint GENERATED ALWAYS AS (unit_price_minor * participants) STORED;
CREATE TRIGGER bookings_sales_rollup_update AFTER UPDATE ON bookings
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status OR OLD.timeslot_id IS DISTINCT FROM NEW.timeslot_id
    OR OLD.participants IS DISTINCT FROM NEW.participants OR OLD.total_minor IS DISTINCT FROM NEW.total_minor
    OR OLD.currency IS DISTINCT FROM NEW.currency OR OLD.channel IS DISTINCT FROM NEW.channel
    OR OLD.partner_id IS DISTINCT FROM NEW.partner_id
  )
  EXECUTE FUNCTION bookings_sales_rollup();
ALTER TABLE bookings DROP COLUMN price_reason, DROP COLUMN price_override_minor;
