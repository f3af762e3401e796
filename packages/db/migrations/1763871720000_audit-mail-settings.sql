-- Up Migration

-- The owner's e-mail settings (sender, reply-to, channels, reminder lead, locale, templates) and the per-partner
-- switch of customer e-mails are audited like the account's other settings: subject mail_settings (its id the
-- account's) and partner.
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (
  subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page', 'mail_settings', 'partner'));

-- Down Migration
DELETE FROM audit_entries WHERE action IN ('mail_settings.updated', 'partner.customer_emails_changed');
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated'));
