// The console's people, their users (a person's role and status in one account) and their server-side sessions. Every
// query takes the account id except those that start from a secret: the e-mail at sign-in (with the password), the
// session id on each request and at sign-out, and the person a session belongs to.
import { createHash, randomUUID } from 'node:crypto';
import type { OperatorRole } from '@backbone/contracts';
import type { Db } from './pool.js';

export type { OperatorRole };

export interface OperatorUser {
  id: string;
  accountId: string;
  /** The person this user is in this account: one e-mail and one password, perhaps users of other accounts too. */
  personId: string;
  email: string;
  /** As the invitation gave it; null for a user added otherwise. */
  name: string | null;
  role: OperatorRole;
  disabled: boolean;
  /** The person's password was given by someone else (a one-time password): they must choose their own before anything else. */
  passwordMustChange: boolean;
  createdAt: string;
}

/** One account a person may sign in to (a user of theirs there that is not disabled). */
export interface PersonAccount {
  userId: string;
  accountId: string;
  accountName: string;
}

/** A person found by e-mail at sign-in (or a reset's request), with the accounts they may sign in to, by name. */
export interface OperatorPerson {
  id: string;
  email: string;
  passwordHash: string;
  passwordMustChange: boolean;
  accounts: PersonAccount[];
}

interface UserRow {
  id: string;
  account_id: string;
  person_id: string;
  email: string;
  role: OperatorRole;
  disabled_at: Date | null;
  password_must_change: boolean;
  created_at: Date;
  name: string | null;
}

const toUser = (r: UserRow): OperatorUser => ({
  id: r.id,
  accountId: r.account_id,
  personId: r.person_id,
  email: r.email,
  name: r.name,
  role: r.role,
  disabled: r.disabled_at !== null,
  passwordMustChange: r.password_must_change,
  createdAt: r.created_at.toISOString(),
});

const USER_COLUMNS = `u.id, u.account_id, u.person_id, u.email, u.role, u.disabled_at, p.password_must_change, u.created_at, u.name`;

/** A new person; null when the address is a person's already (whichever accounts they are a user of). */
export async function insertOperatorPerson(
  db: Db,
  input: { email: string; passwordHash: string; passwordMustChange: boolean },
): Promise<{ id: string; email: string } | null> {
  const { rows } = await db.query<{ id: string; email: string }>(
    `INSERT INTO operator_people (id, email, password_hash, password_must_change) VALUES ($1, $2, $3, $4)
     ON CONFLICT (email) DO NOTHING RETURNING id, email`,
    [randomUUID(), input.email, input.passwordHash, input.passwordMustChange],
  );
  return rows[0] ?? null;
}

/** Makes the person a user of the account; null when they are one already. */
export async function insertOperatorUser(
  db: Db,
  accountId: string,
  input: { person: { id: string; email: string }; name?: string | null; role: OperatorRole },
): Promise<OperatorUser | null> {
  const { rows } = await db.query<UserRow>(
    `WITH u AS (
       INSERT INTO operator_users (id, account_id, person_id, email, role, name) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING
       RETURNING *
     )
     SELECT ${USER_COLUMNS} FROM u JOIN operator_people p ON p.id = u.person_id`,
    [randomUUID(), accountId, input.person.id, input.person.email, input.role, input.name ?? null],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/**
 * The person with this address, their password hash and the accounts they may sign in to (none when every user of
 * theirs is disabled); only the ways in (sign-in, a reset's request, an invitation's acceptance) look a person up by
 * address, without an account.
 */
export async function findOperatorPerson(db: Db, email: string): Promise<OperatorPerson | null> {
  const { rows } = await db.query<{ id: string; email: string; password_hash: string; password_must_change: boolean; accounts: PersonAccount[] }>(
    `SELECT p.id, p.email, p.password_hash, p.password_must_change,
            coalesce(json_agg(json_build_object('userId', u.id, 'accountId', a.id, 'accountName', a.name) ORDER BY a.name, a.id)
                     FILTER (WHERE u.id IS NOT NULL), '[]') AS accounts
       FROM operator_people p
       LEFT JOIN operator_users u ON u.person_id = p.id AND u.disabled_at IS NULL
       LEFT JOIN accounts a ON a.id = u.account_id
      WHERE p.email = $1
      GROUP BY p.id`,
    [email],
  );
  const row = rows[0];
  return row ? { id: row.id, email: row.email, passwordHash: row.password_hash, passwordMustChange: row.password_must_change, accounts: row.accounts } : null;
}

/**
 * The accounts a person may sign in to, by name. By the person's id, which only a session (a secret) or a user of an
 * account gives: it names nothing but their own accounts.
 */
export async function listPersonAccounts(db: Db, personId: string): Promise<PersonAccount[]> {
  const { rows } = await db.query<{ user_id: string; account_id: string; name: string }>(
    `SELECT u.id AS user_id, a.id AS account_id, a.name FROM operator_users u JOIN accounts a ON a.id = u.account_id
      WHERE u.person_id = $1 AND u.disabled_at IS NULL ORDER BY a.name, a.id`,
    [personId],
  );
  return rows.map((r) => ({ userId: r.user_id, accountId: r.account_id, accountName: r.name }));
}

export async function findOperatorUserByEmail(db: Db, accountId: string, email: string): Promise<OperatorUser | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM operator_users u JOIN operator_people p ON p.id = u.person_id WHERE u.account_id = $1 AND u.email = $2`,
    [accountId, email],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findOperatorUserById(db: Db, accountId: string, userId: string): Promise<OperatorUser | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM operator_users u JOIN operator_people p ON p.id = u.person_id WHERE u.account_id = $1 AND u.id = $2`,
    [accountId, userId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function listOperatorUsers(db: Db, accountId: string): Promise<OperatorUser[]> {
  const { rows } = await db.query<UserRow>(
    `SELECT ${USER_COLUMNS} FROM operator_users u JOIN operator_people p ON p.id = u.person_id WHERE u.account_id = $1 ORDER BY u.email`,
    [accountId],
  );
  return rows.map(toUser);
}

/**
 * Sets a new password hash, and whether it must be replaced, for the person behind a user of the account: the password
 * is the person's, so it is theirs in every account. False when the account has no such user.
 */
export async function updateOperatorPassword(db: Db, accountId: string, userId: string, passwordHash: string, mustChange: boolean): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE operator_people SET password_hash = $3, password_must_change = $4
      WHERE id = (SELECT person_id FROM operator_users WHERE account_id = $1 AND id = $2)`,
    [accountId, userId, passwordHash, mustChange],
  );
  return rowCount === 1;
}

/** The password hash of the person behind an enabled user of the account (changing one's own password checks it). */
export async function findOperatorPasswordHash(db: Db, accountId: string, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string }>(
    `SELECT p.password_hash FROM operator_users u JOIN operator_people p ON p.id = u.person_id
      WHERE u.account_id = $1 AND u.id = $2 AND u.disabled_at IS NULL`,
    [accountId, userId],
  );
  return rows[0]?.password_hash ?? null;
}

/**
 * Ends every session of the person behind a user of the account, in every account and those not bound to one yet, but
 * the one given (changing one's own password keeps the session it was changed in; a reset keeps none).
 */
export async function deletePersonSessions(db: Db, accountId: string, userId: string, keptSessionId: string | null = null): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM operator_sessions
      WHERE person_id = (SELECT person_id FROM operator_users WHERE account_id = $1 AND id = $2) AND id_hash IS DISTINCT FROM $3`,
    [accountId, userId, keptSessionId === null ? null : hashSessionId(keptSessionId)],
  );
  return rowCount ?? 0;
}

/**
 * Disables an enabled user of the account unless it is the account's last active owner ('last-owner'); 'unchanged' when
 * there is no such user or it was disabled already. One statement that first locks the account's active owners, in id
 * order (so two of these never deadlock), and decides on what it locked: when two owners disable each other at once,
 * the second waits for the first, then sees it disabled, and is refused; the account never loses its last owner.
 */
export async function disableOperatorUser(db: Db, accountId: string, userId: string): Promise<'disabled' | 'unchanged' | 'last-owner'> {
  const { rows } = await db.query<{ last_owner: boolean; disabled: boolean }>(
    `WITH owners AS (
       SELECT id FROM operator_users WHERE account_id = $1 AND role = 'owner' AND disabled_at IS NULL ORDER BY id FOR UPDATE
     ), decision AS (
       SELECT $2::uuid IN (SELECT id FROM owners) AND (SELECT count(*) FROM owners) = 1 AS last_owner
     ), disabled AS (
       UPDATE operator_users SET disabled_at = now()
        WHERE account_id = $1 AND id = $2 AND disabled_at IS NULL AND NOT (SELECT last_owner FROM decision)
       RETURNING id
     )
     SELECT (SELECT last_owner FROM decision) AS last_owner, EXISTS (SELECT 1 FROM disabled) AS disabled`,
    [accountId, userId],
  );
  const row = rows[0]!;
  return row.last_owner ? 'last-owner' : row.disabled ? 'disabled' : 'unchanged';
}

/** Ends every session bound to a user of the account (disabling it); the person's sessions in other accounts go on. */
export async function deleteOperatorSessionsOfUser(db: Db, accountId: string, userId: string): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM operator_sessions WHERE account_id = $1 AND user_id = $2`, [accountId, userId]);
  return rowCount ?? 0;
}

function hashSessionId(sessionId: string): Buffer {
  return createHash('sha256').update(sessionId).digest();
}

/**
 * A session of a person: bound to one of their users (and so to that user's account), or to none yet (`user` null:
 * signed in with several accounts, before choosing one). It ends `absoluteLifetimeMs` from now, or at `expiresAt` when
 * it replaces a session (choosing an account never extends a sign-in).
 */
export async function insertOperatorSession(
  db: Db,
  session: { personId: string; user: { id: string; accountId: string } | null },
  sessionId: string,
  ends: { absoluteLifetimeMs: number } | { expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO operator_sessions (id_hash, person_id, user_id, account_id, expires_at)
     VALUES ($1, $2, $3, $4, coalesce($5::timestamptz, now() + make_interval(secs => $6::double precision / 1000)))`,
    [
      hashSessionId(sessionId),
      session.personId,
      session.user?.id ?? null,
      session.user?.accountId ?? null,
      'expiresAt' in ends ? ends.expiresAt : null,
      'absoluteLifetimeMs' in ends ? ends.absoluteLifetimeMs : null,
    ],
  );
}

/**
 * The live session with this id (not idle for longer than `idleTimeoutMs`, before its end), locked and deleted for the
 * caller's transaction, which replaces it; null when there is none. Its person's, bound to an account or not.
 */
export async function takeLiveOperatorSession(db: Db, sessionId: string, idleTimeoutMs: number): Promise<{ personId: string; expiresAt: Date } | null> {
  const { rows } = await db.query<{ person_id: string; expires_at: Date }>(
    `DELETE FROM operator_sessions
      WHERE id_hash = $1 AND expires_at > now() AND last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
      RETURNING person_id, expires_at`,
    [hashSessionId(sessionId), idleTimeoutMs],
  );
  const row = rows[0];
  return row ? { personId: row.person_id, expiresAt: row.expires_at } : null;
}

export interface OperatorSession {
  userId: string;
  accountId: string;
  accountTimeZone: string;
  personId: string;
  email: string;
  role: OperatorRole;
  passwordMustChange: boolean;
}

/** A live session not bound to an account yet: it opens nothing until its person chooses one. */
export interface UnboundOperatorSession {
  unbound: true;
  personId: string;
}

/**
 * The live session with this id; null when unknown, idle for longer than `idleTimeoutMs`, past its absolute end, or its
 * user disabled. Its idle clock restarts only once the last restart is a hundredth of the idle timeout old (at most a
 * minute; the api keys' last_used_at is written as seldom): a console sends several requests a second, and a write on
 * each made every request, reads included, wait for a WAL flush and queue on the session's row lock (the bench's
 * operator-day section measured it). A session in use may so end up to that hundredth early. One statement, so a
 * session cannot be revived between check and touch. A session not bound to an account yet is answered as such.
 */
export async function touchOperatorSession(db: Db, sessionId: string, idleTimeoutMs: number): Promise<OperatorSession | UnboundOperatorSession | null> {
  const { rows } = await db.query<{
    user_id: string | null;
    account_id: string | null;
    time_zone: string | null;
    person_id: string;
    email: string;
    role: OperatorRole | null;
    password_must_change: boolean;
  }>({
    name: 'operator-session-touch',
    text: `WITH live AS (
             SELECT s.id_hash, s.last_seen_at, s.user_id, s.account_id, a.time_zone, s.person_id, p.email, u.role, p.password_must_change
               FROM operator_sessions s
               JOIN operator_people p ON p.id = s.person_id
               LEFT JOIN operator_users u ON u.id = s.user_id
               LEFT JOIN accounts a ON a.id = s.account_id
              WHERE s.id_hash = $1 AND (s.user_id IS NULL OR u.disabled_at IS NULL)
                AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
           ), touched AS (
             UPDATE operator_sessions s SET last_seen_at = now()
               FROM live
              WHERE s.id_hash = live.id_hash AND live.last_seen_at <= now() - make_interval(secs => $3::double precision / 1000)
           )
           SELECT user_id, account_id, time_zone, person_id, email, role, password_must_change FROM live`,
    values: [hashSessionId(sessionId), idleTimeoutMs, Math.min(idleTimeoutMs / 100, 60_000)],
  });
  const row = rows[0];
  if (!row) return null;
  if (row.user_id === null || row.account_id === null || row.time_zone === null || row.role === null) return { unbound: true, personId: row.person_id };
  return {
    userId: row.user_id,
    accountId: row.account_id,
    accountTimeZone: row.time_zone,
    personId: row.person_id,
    email: row.email,
    role: row.role,
    passwordMustChange: row.password_must_change,
  };
}

export async function deleteOperatorSession(db: Db, sessionId: string): Promise<void> {
  await db.query(`DELETE FROM operator_sessions WHERE id_hash = $1`, [hashSessionId(sessionId)]);
}

/** Removes sessions past their absolute end; expired ones are refused anyway, this only keeps the table small. */
export async function deleteExpiredOperatorSessions(db: Db): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM operator_sessions WHERE expires_at <= now()`);
  return rowCount ?? 0;
}
