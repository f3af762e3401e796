-- Up Migration

-- Owners' changes to the account's booking page (on/off, slug, embed origins, note, terms, locale) are audited like
-- their other settings: subject booking_page, its id the account's.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page'));

-- Down Migration
DELETE FROM audit_entries WHERE action = 'booking_page.updated';
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (subject_type IN ('activity', 'timeslot', 'key', 'user'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed'));
