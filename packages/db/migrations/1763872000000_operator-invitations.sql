-- Up Migration

-- Users invited by e-mail and passwords reset by e-mail (issue 39). Both send a link whose token the mail worker mints
-- as it sends the message (like the booking e-mails' manage links): the stored message holds a mark in its place, and
-- operator_link_tokens keeps only the token's SHA-256 beside the message it was minted for. A link works while its
-- message is the current one of a pending invitation or an unused reset, before its end; a resend writes a new message,
-- so the links of the old one stop working.

-- A user's name, as the invitation gave it (users added before have none).
ALTER TABLE operator_users ADD COLUMN name text CHECK (length(name) BETWEEN 1 AND 200);

ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check;
ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
  CHECK (kind IN ('confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer', 'test', 'invitation', 'password-reset'));

CREATE TABLE operator_invitations (
  id           uuid PRIMARY KEY,
  account_id   uuid NOT NULL REFERENCES accounts(id),
  email        text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  name         text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  role         text NOT NULL CHECK (role IN ('owner', 'staff')),
  invited_by   text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  -- Set again by a resend, with the message.
  expires_at   timestamptz NOT NULL,
  mail_id      bigint NOT NULL REFERENCES mail_messages(id),
  accepted_at  timestamptz,
  revoked_at   timestamptz,
  user_id      uuid REFERENCES operator_users(id)
);
-- One pending invitation per address and account: inviting again is a resend.
CREATE UNIQUE INDEX operator_invitations_pending_idx ON operator_invitations (account_id, email) WHERE accepted_at IS NULL AND revoked_at IS NULL;
CREATE UNIQUE INDEX operator_invitations_mail_idx ON operator_invitations (mail_id);

CREATE TABLE operator_password_resets (
  id          uuid PRIMARY KEY,
  account_id  uuid NOT NULL REFERENCES accounts(id),
  user_id     uuid NOT NULL REFERENCES operator_users(id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL,
  mail_id     bigint NOT NULL REFERENCES mail_messages(id),
  used_at     timestamptz
);
CREATE UNIQUE INDEX operator_password_resets_mail_idx ON operator_password_resets (mail_id);
CREATE INDEX operator_password_resets_user_idx ON operator_password_resets (user_id) WHERE used_at IS NULL;

-- The tokens of the links sent: their SHA-256 only, and the message each was minted for (a retry mints another).
-- mail_id has no foreign key on purpose: the worker mints a token while its claim holds the message's row FOR UPDATE,
-- and the key's check (FOR KEY SHARE on that row, from another connection) would wait for that claim forever.
CREATE TABLE operator_link_tokens (
  token_hash  bytea PRIMARY KEY,
  mail_id     bigint NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX operator_link_tokens_mail_idx ON operator_link_tokens (mail_id);

ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed', 'invitation.created', 'invitation.resent', 'invitation.revoked', 'invitation.accepted',
  'password.reset'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (
  subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page', 'mail_settings', 'partner', 'invitation'));

-- Down Migration
DELETE FROM audit_entries WHERE action IN ('invitation.created', 'invitation.resent', 'invitation.revoked', 'invitation.accepted', 'password.reset');
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_subject_type_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_subject_type_check CHECK (
  subject_type IN ('activity', 'timeslot', 'key', 'user', 'booking_page', 'mail_settings', 'partner'));
ALTER TABLE audit_entries DROP CONSTRAINT audit_entries_action_check;
ALTER TABLE audit_entries ADD CONSTRAINT audit_entries_action_check CHECK (action IN (
  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslots.removed', 'timeslot.closed',
  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
  'user.created', 'user.disabled', 'password.changed', 'booking_page.updated', 'mail_settings.updated',
  'partner.customer_emails_changed'));
DROP TABLE operator_link_tokens;
DROP TABLE operator_password_resets;
DROP TABLE operator_invitations;
DELETE FROM mail_messages WHERE kind IN ('invitation', 'password-reset');
ALTER TABLE mail_messages DROP CONSTRAINT mail_messages_kind_check;
ALTER TABLE mail_messages ADD CONSTRAINT mail_messages_kind_check
  CHECK (kind IN ('confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer', 'test'));
ALTER TABLE operator_users DROP COLUMN name;
