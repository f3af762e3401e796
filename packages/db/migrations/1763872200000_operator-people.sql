-- Up Migration

-- One person, several accounts (issue 39): a person (one e-mail address, one password) may be a user of several
-- accounts, with a role and a status in each. operator_people holds what belongs to the person; operator_users stays the
-- membership of one person in one account (every account-scoped query and foreign key keeps reading it). Its e-mail is
-- the person's, kept equal by a foreign key on (person_id, email), so a reader of one account never needs the people.
-- Each existing user becomes a person with the same id, e-mail, password and creation time: nothing is lost.
CREATE TABLE operator_people (
  id                    uuid PRIMARY KEY,
  email                 text NOT NULL UNIQUE CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 254),
  -- scrypt$N$r$p$salt$hash, as operator_users held it.
  password_hash         text NOT NULL,
  -- A one-time password (someone else saw it) must be replaced at the next sign-in.
  password_must_change  boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (id, email)
);
INSERT INTO operator_people (id, email, password_hash, password_must_change, created_at)
  SELECT id, email, password_hash, password_must_change, created_at FROM operator_users;

ALTER TABLE operator_users ADD COLUMN person_id uuid;
UPDATE operator_users SET person_id = id;
ALTER TABLE operator_users ALTER COLUMN person_id SET NOT NULL;
ALTER TABLE operator_users ADD CONSTRAINT operator_users_person_fkey
  FOREIGN KEY (person_id, email) REFERENCES operator_people (id, email) ON UPDATE CASCADE;
-- An address is unique per account now, not across accounts.
ALTER TABLE operator_users DROP CONSTRAINT operator_users_email_key;
ALTER TABLE operator_users ADD CONSTRAINT operator_users_account_person_key UNIQUE (account_id, person_id);
ALTER TABLE operator_users ADD CONSTRAINT operator_users_account_email_key UNIQUE (account_id, email);
-- The target of the sessions' key below: a session's account and person are its user's.
ALTER TABLE operator_users ADD CONSTRAINT operator_users_membership_key UNIQUE (id, account_id, person_id);
CREATE INDEX operator_users_person_idx ON operator_users (person_id);
ALTER TABLE operator_users DROP COLUMN password_hash, DROP COLUMN password_must_change;

-- A session belongs to a person. It is bound to one of their users (and so to one account) or, right after signing in
-- with several accounts, to none yet: such a session opens nothing until an account is chosen, which replaces it with
-- a bound one. The composite key makes a bound session's account its user's account, whatever a writer gets wrong.
ALTER TABLE operator_sessions ADD COLUMN person_id uuid REFERENCES operator_people (id) ON DELETE CASCADE;
UPDATE operator_sessions s SET person_id = u.person_id FROM operator_users u WHERE u.id = s.user_id;
ALTER TABLE operator_sessions ALTER COLUMN person_id SET NOT NULL;
ALTER TABLE operator_sessions ALTER COLUMN user_id DROP NOT NULL, ALTER COLUMN account_id DROP NOT NULL;
ALTER TABLE operator_sessions DROP CONSTRAINT operator_sessions_user_id_fkey;
ALTER TABLE operator_sessions ADD CONSTRAINT operator_sessions_membership_fkey
  FOREIGN KEY (user_id, account_id, person_id) REFERENCES operator_users (id, account_id, person_id) ON DELETE CASCADE;
ALTER TABLE operator_sessions ADD CONSTRAINT operator_sessions_bound_check CHECK ((user_id IS NULL) = (account_id IS NULL));
CREATE INDEX operator_sessions_person_idx ON operator_sessions (person_id);

-- Down Migration
-- Folding people back into users is only possible while each person is a user of one account; past that the Down
-- refuses rather than drop memberships.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM operator_users GROUP BY person_id HAVING count(*) > 1) THEN
    RAISE EXCEPTION 'operator people with users in several accounts: one user per address cannot hold them';
  END IF;
END $$;
DELETE FROM operator_sessions WHERE user_id IS NULL;
DROP INDEX operator_sessions_person_idx;
ALTER TABLE operator_sessions DROP CONSTRAINT operator_sessions_bound_check;
ALTER TABLE operator_sessions DROP CONSTRAINT operator_sessions_membership_fkey;
ALTER TABLE operator_sessions ALTER COLUMN user_id SET NOT NULL, ALTER COLUMN account_id SET NOT NULL;
ALTER TABLE operator_sessions ADD CONSTRAINT operator_sessions_user_id_fkey FOREIGN KEY (user_id) REFERENCES operator_users (id) ON DELETE CASCADE;
ALTER TABLE operator_sessions DROP COLUMN person_id;

ALTER TABLE operator_users ADD COLUMN password_hash text, ADD COLUMN password_must_change boolean NOT NULL DEFAULT false;
UPDATE operator_users u SET password_hash = p.password_hash, password_must_change = p.password_must_change
  FROM operator_people p WHERE p.id = u.person_id;
ALTER TABLE operator_users ALTER COLUMN password_hash SET NOT NULL;
DROP INDEX operator_users_person_idx;
ALTER TABLE operator_users DROP CONSTRAINT operator_users_membership_key;
ALTER TABLE operator_users DROP CONSTRAINT operator_users_account_email_key;
ALTER TABLE operator_users DROP CONSTRAINT operator_users_account_person_key;
ALTER TABLE operator_users ADD CONSTRAINT operator_users_email_key UNIQUE (email);
ALTER TABLE operator_users DROP CONSTRAINT operator_users_person_fkey;
ALTER TABLE operator_users DROP COLUMN person_id;
DROP TABLE operator_people;
