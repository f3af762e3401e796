-- Up Migration

-- Owners remove empty timeslots in bulk (an over-eager generation undone); the removal is audited like the generation.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed'));

-- Down Migration
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed'));
