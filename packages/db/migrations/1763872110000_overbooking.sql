-- Up Migration

-- Overbooking by choice (issue 39, the desk): an owner may sell past a timeslot's capacity with an explicit
-- confirmation. The places so sold count as booked (the timeslot shows 8/6); `overbooked` is how far past its capacity
-- owners have chosen to sell it, so the CHECK stays the backstop it was: booked never exceeds the capacity but by what
-- an owner chose. Every other reservation still fits within the capacity alone (its conditional update says so).
ALTER TABLE timeslots ADD COLUMN overbooked integer NOT NULL DEFAULT 0 CHECK (overbooked >= 0);
ALTER TABLE timeslots DROP CONSTRAINT timeslots_booked_within_capacity;
ALTER TABLE timeslots ADD CONSTRAINT timeslots_booked_within_capacity CHECK (booked >= 0 AND booked <= capacity + overbooked);

-- Who overbooked which timeslot by how many: audited, subject the booking sold.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed', 'invitation.created', 'invitation.resent', 'invitation.revoked', 'invitation.accepted',
  'password.reset', 'booking.price_changed', 'booking.overbooked'));

-- Down Migration
DELETE FROM audit_entries WHERE action = 'booking.overbooked';
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed', 'invitation.created', 'invitation.resent', 'invitation.revoked', 'invitation.accepted',
  'password.reset', 'booking.price_changed'));
-- An overbooked timeslot keeps its bookings: its capacity grows to them, as the old CHECK requires.
UPDATE timeslots SET capacity = booked WHERE booked > capacity;
ALTER TABLE timeslots DROP CONSTRAINT timeslots_booked_within_capacity;
ALTER TABLE timeslots ADD CONSTRAINT timeslots_booked_within_capacity CHECK (booked BETWEEN 0 AND capacity);
ALTER TABLE timeslots DROP COLUMN overbooked;
