-- Up Migration

-- What owners (and the admin CLI) did to an account's activities, schedule, keys and users, newest read first. Each
-- row is written in the transaction of the change it records, so there is no change without its row, nor the reverse.
-- The actor and the subject keep their label as it was (an e-mail, a key's or an activity's name), since either may
-- be renamed or gone later. `changes` holds { Member: { From, To } } of what changed, never a secret or a hash.
CREATE TABLE audit_entries (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id    uuid NOT NULL REFERENCES accounts(id),
  at            timestamptz NOT NULL DEFAULT now(),
  -- user: a console user (actor_id, its e-mail); key: an admin key (actor_id, its name); cli: the admin CLI;
  -- system: the service itself (the demo seed).
  actor_kind    text NOT NULL CHECK (actor_kind IN ('user', 'key', 'cli', 'system')),
  actor_id      uuid CHECK ((actor_id IS NOT NULL) = (actor_kind IN ('user', 'key'))),
  actor_label   text,
  action        text NOT NULL CHECK (action IN (
                  'activity.created', 'activity.updated', 'question.added', 'timeslots.generated', 'timeslot.closed',
                  'timeslot.reopened', 'timeslot.capacity_changed', 'key.created', 'key.revoked', 'key.rate_limit_changed',
                  'user.created', 'user.disabled', 'password.changed')),
  subject_type  text NOT NULL CHECK (subject_type IN ('activity', 'timeslot', 'key', 'user')),
  subject_id    text NOT NULL,
  subject_label text NOT NULL,
  changes       jsonb NOT NULL DEFAULT '{}'::jsonb
);
-- The keyset pages, newest first, of all actions or of one, and the walk of a time range.
CREATE INDEX audit_entries_page_idx ON audit_entries (account_id, id);
CREATE INDEX audit_entries_action_idx ON audit_entries (account_id, action, id);
CREATE INDEX audit_entries_at_idx ON audit_entries (account_id, at);

-- Down Migration
DROP TABLE audit_entries;
