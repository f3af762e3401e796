// Operator users (the console's people) and their server-side sessions. Every query takes the account id except those
// that start from a secret: the e-mail at sign-in, and the session id on each request and at sign-out.
import { createHash, randomUUID } from 'node:crypto';
import type { OperatorRole } from '@backbone/contracts';
import type { Db } from './pool.js';

export type { OperatorRole };

export interface OperatorUser {
  id: string;
  accountId: string;
  email: string;
  /** As the invitation gave it; null for a user added otherwise. */
  name: string | null;
  role: OperatorRole;
  disabled: boolean;
  /** The password was given by someone else (a one-time password): the user must choose their own before anything else. */
  passwordMustChange: boolean;
  createdAt: string;
}

export interface OperatorCredentials extends OperatorUser {
  passwordHash: string;
}

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  role: OperatorRole;
  disabled_at: Date | null;
  password_must_change: boolean;
  created_at: Date;
  password_hash: string;
  name: string | null;
}

const toUser = (r: UserRow): OperatorUser => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  role: r.role,
  disabled: r.disabled_at !== null,
  passwordMustChange: r.password_must_change,
  createdAt: r.created_at.toISOString(),
});

/** Null when the address is taken (by this account or another). */
export async function insertOperatorUser(
  db: Db,
  accountId: string,
  input: { email: string; name?: string | null; role: OperatorRole; passwordHash: string; passwordMustChange: boolean },
): Promise<OperatorUser | null> {
  const { rows } = await db.query<UserRow>(
    `INSERT INTO operator_users (id, account_id, email, role, password_hash, password_must_change, name) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (email) DO NOTHING
     RETURNING id, account_id, email, role, disabled_at, password_must_change, created_at, password_hash, name`,
    [randomUUID(), accountId, input.email, input.role, input.passwordHash, input.passwordMustChange, input.name ?? null],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

/** The user with this address and its password hash, enabled or not; only sign-in looks users up without an account. */
export async function findOperatorCredentials(db: Db, email: string): Promise<OperatorCredentials | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT id, account_id, email, role, disabled_at, password_must_change, created_at, password_hash, name FROM operator_users WHERE email = $1`,
    [email],
  );
  const row = rows[0];
  return row ? { ...toUser(row), passwordHash: row.password_hash } : null;
}

export async function findOperatorUserByEmail(db: Db, accountId: string, email: string): Promise<OperatorUser | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT id, account_id, email, role, disabled_at, password_must_change, created_at, password_hash, name FROM operator_users WHERE account_id = $1 AND email = $2`,
    [accountId, email],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function findOperatorUserById(db: Db, accountId: string, userId: string): Promise<OperatorUser | null> {
  const { rows } = await db.query<UserRow>(
    `SELECT id, account_id, email, role, disabled_at, password_must_change, created_at, password_hash, name FROM operator_users WHERE account_id = $1 AND id = $2`,
    [accountId, userId],
  );
  return rows[0] ? toUser(rows[0]) : null;
}

export async function listOperatorUsers(db: Db, accountId: string): Promise<OperatorUser[]> {
  const { rows } = await db.query<UserRow>(
    `SELECT id, account_id, email, role, disabled_at, password_must_change, created_at, password_hash, name FROM operator_users WHERE account_id = $1 ORDER BY email`,
    [accountId],
  );
  return rows.map(toUser);
}

/** Sets a new password hash, and whether its user must replace it; false when the account has no such user. */
export async function updateOperatorPassword(db: Db, accountId: string, userId: string, passwordHash: string, mustChange: boolean): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE operator_users SET password_hash = $3, password_must_change = $4 WHERE account_id = $1 AND id = $2`, [
    accountId,
    userId,
    passwordHash,
    mustChange,
  ]);
  return rowCount === 1;
}

/** The password hash of a user of the account (changing one's own password checks the current one). */
export async function findOperatorPasswordHash(db: Db, accountId: string, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string }>(
    `SELECT password_hash FROM operator_users WHERE account_id = $1 AND id = $2 AND disabled_at IS NULL`,
    [accountId, userId],
  );
  return rows[0]?.password_hash ?? null;
}

/** Ends every session of a user but the one given (changing one's own password keeps the session it was changed in). */
export async function deleteOtherOperatorSessions(db: Db, accountId: string, userId: string, keptSessionId: string): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM operator_sessions WHERE account_id = $1 AND user_id = $2 AND id_hash <> $3`, [
    accountId,
    userId,
    hashSessionId(keptSessionId),
  ]);
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

/** Ends every session of a user (password reset, disabling). */
export async function deleteOperatorSessionsOfUser(db: Db, accountId: string, userId: string): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM operator_sessions WHERE account_id = $1 AND user_id = $2`, [accountId, userId]);
  return rowCount ?? 0;
}

function hashSessionId(sessionId: string): Buffer {
  return createHash('sha256').update(sessionId).digest();
}

export async function insertOperatorSession(db: Db, user: { id: string; accountId: string }, sessionId: string, absoluteLifetimeMs: number): Promise<void> {
  await db.query(
    `INSERT INTO operator_sessions (id_hash, user_id, account_id, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision / 1000))`,
    [hashSessionId(sessionId), user.id, user.accountId, absoluteLifetimeMs],
  );
}

export interface OperatorSession {
  userId: string;
  accountId: string;
  accountTimeZone: string;
  email: string;
  role: OperatorRole;
  passwordMustChange: boolean;
}

/**
 * The live session with this id; null when unknown, idle for longer than `idleTimeoutMs`, past its absolute end, or its
 * user disabled. Its idle clock restarts only once the last restart is a hundredth of the idle timeout old (at most a
 * minute; the api keys' last_used_at is written as seldom): a console sends several requests a second, and a write on
 * each made every request, reads included, wait for a WAL flush and queue on the session's row lock (the bench's
 * operator-day section measured it). A session in use may so end up to that hundredth early. One statement, so a
 * session cannot be revived between check and touch.
 */
export async function touchOperatorSession(db: Db, sessionId: string, idleTimeoutMs: number): Promise<OperatorSession | null> {
  const { rows } = await db.query<{ user_id: string; account_id: string; time_zone: string; email: string; role: OperatorRole; password_must_change: boolean }>(
    {
      name: 'operator-session-touch',
      text: `WITH live AS (
             SELECT s.id_hash, s.last_seen_at, s.user_id, s.account_id, a.time_zone, u.email, u.role, u.password_must_change
               FROM operator_sessions s
               JOIN operator_users u ON u.id = s.user_id
               JOIN accounts a ON a.id = s.account_id
              WHERE s.id_hash = $1 AND u.disabled_at IS NULL
                AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
           ), touched AS (
             UPDATE operator_sessions s SET last_seen_at = now()
               FROM live
              WHERE s.id_hash = live.id_hash AND live.last_seen_at <= now() - make_interval(secs => $3::double precision / 1000)
           )
           SELECT user_id, account_id, time_zone, email, role, password_must_change FROM live`,
      values: [hashSessionId(sessionId), idleTimeoutMs, Math.min(idleTimeoutMs / 100, 60_000)],
    },
  );
  const row = rows[0];
  return row
    ? {
        userId: row.user_id,
        accountId: row.account_id,
        accountTimeZone: row.time_zone,
        email: row.email,
        role: row.role,
        passwordMustChange: row.password_must_change,
      }
    : null;
}

export async function deleteOperatorSession(db: Db, sessionId: string): Promise<void> {
  await db.query(`DELETE FROM operator_sessions WHERE id_hash = $1`, [hashSessionId(sessionId)]);
}

/** Removes sessions past their absolute end; expired ones are refused anyway, this only keeps the table small. */
export async function deleteExpiredOperatorSessions(db: Db): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM operator_sessions WHERE expires_at <= now()`);
  return rowCount ?? 0;
}
