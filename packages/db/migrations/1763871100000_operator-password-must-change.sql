-- Up Migration

-- A password someone else saw (the admin CLI's or the users page's one-time password) must be replaced by its user at
-- the first sign-in: until then the session may only change the password or sign out.
ALTER TABLE operator_users ADD COLUMN password_must_change boolean NOT NULL DEFAULT false;

-- Down Migration
ALTER TABLE operator_users DROP COLUMN password_must_change;
