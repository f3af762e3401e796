// Invitations to the console and password resets by e-mail, with the e-mails that carry their links (written in the
// same transaction as what they announce) and the tokens the mail worker mints for those links (their SHA-256 only).
// Every query takes the account id, except those that start from a secret: the token of a link.
import { createHash, randomUUID } from 'node:crypto';
import type { OperatorRole } from '@backbone/contracts';
import type { Db, DbClient } from './pool.js';

export interface OperatorInvitation {
  id: string;
  accountId: string;
  email: string;
  name: string;
  role: OperatorRole;
  invitedBy: string;
  createdAt: string;
  expiresAt: string;
  /** The status of the e-mail that carries the current link (queued, sent, failed). */
  mailStatus: string;
}

interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  name: string;
  role: OperatorRole;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  mail_status: string;
}

const toInvitation = (r: InvitationRow): OperatorInvitation => ({
  id: r.id,
  accountId: r.account_id,
  email: r.email,
  name: r.name,
  role: r.role,
  invitedBy: r.invited_by,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  mailStatus: r.mail_status,
});

const INVITATION_COLUMNS = `i.id, i.account_id, i.email, i.name, i.role, i.invited_by, i.created_at, i.expires_at, m.status AS mail_status`;

/** A staff e-mail (invitation or reset) in the mail outbox; its content is rendered by the worker from `data`. */
async function insertStaffMail(db: Db, accountId: string, kind: 'invitation' | 'password-reset', to: string, data: Record<string, unknown>): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO mail_messages (account_id, kind, dedupe_key, to_address, data) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [accountId, kind, `${kind}:${randomUUID()}`, to, JSON.stringify(data)],
  );
  return rows[0]!.id;
}

/** A pending invitation and its e-mail; null when the address has a pending invitation of this account already. */
export async function insertOperatorInvitation(
  client: DbClient,
  accountId: string,
  input: { email: string; name: string; role: OperatorRole; invitedBy: string; lifetimeMs: number },
): Promise<OperatorInvitation | null> {
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + input.lifetimeMs);
  const pending = await client.query(`SELECT 1 FROM operator_invitations WHERE account_id = $1 AND email = $2 AND accepted_at IS NULL AND revoked_at IS NULL`, [
    accountId,
    input.email,
  ]);
  if (pending.rowCount) return null;
  const mailId = await insertStaffMail(client, accountId, 'invitation', input.email, {
    InvitationID: id,
    Name: input.name,
    Role: input.role,
    InvitedBy: input.invitedBy,
    ExpiresAt: expiresAt.toISOString(),
  });
  const { rows } = await client.query<InvitationRow>(
    `WITH i AS (
       INSERT INTO operator_invitations (id, account_id, email, name, role, invited_by, expires_at, mail_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT DO NOTHING
       RETURNING *
     )
     SELECT ${INVITATION_COLUMNS} FROM i JOIN mail_messages m ON m.id = i.mail_id`,
    [id, accountId, input.email, input.name, input.role, input.invitedBy, expiresAt, mailId],
  );
  return rows[0] ? toInvitation(rows[0]) : null;
}

/** The account's pending invitations (not accepted nor revoked, expired ones included: they can be resent), newest first. */
export async function listPendingInvitations(db: Db, accountId: string): Promise<OperatorInvitation[]> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM operator_invitations i JOIN mail_messages m ON m.id = i.mail_id
      WHERE i.account_id = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL ORDER BY i.created_at DESC, i.id`,
    [accountId],
  );
  return rows.map(toInvitation);
}

/** A pending invitation of the account, locked for the caller's transaction; null when there is none. */
export async function lockPendingInvitation(client: DbClient, accountId: string, invitationId: string): Promise<OperatorInvitation | null> {
  const { rows } = await client.query<InvitationRow>(
    `SELECT ${INVITATION_COLUMNS} FROM operator_invitations i JOIN mail_messages m ON m.id = i.mail_id
      WHERE i.account_id = $1 AND i.id = $2 AND i.accepted_at IS NULL AND i.revoked_at IS NULL FOR UPDATE OF i`,
    [accountId, invitationId],
  );
  return rows[0] ? toInvitation(rows[0]) : null;
}

/** A new e-mail with a new link for a locked pending invitation, which expires `lifetimeMs` from now; the old links stop working. */
export async function resendOperatorInvitation(
  client: DbClient,
  invitation: OperatorInvitation,
  input: { invitedBy: string; lifetimeMs: number },
): Promise<OperatorInvitation> {
  const expiresAt = new Date(Date.now() + input.lifetimeMs);
  const mailId = await insertStaffMail(client, invitation.accountId, 'invitation', invitation.email, {
    InvitationID: invitation.id,
    Name: invitation.name,
    Role: invitation.role,
    InvitedBy: input.invitedBy,
    ExpiresAt: expiresAt.toISOString(),
  });
  // The old message, when it has not left yet, need not leave at all.
  await client.query(
    `UPDATE mail_messages m SET status = 'cancelled', last_error = 'invitation resent'
       FROM operator_invitations i WHERE i.id = $2 AND i.account_id = $1 AND m.id = i.mail_id AND m.status = 'queued'`,
    [invitation.accountId, invitation.id],
  );
  const { rows } = await client.query<InvitationRow>(
    `WITH i AS (UPDATE operator_invitations SET mail_id = $3, expires_at = $4 WHERE account_id = $1 AND id = $2 RETURNING *)
     SELECT ${INVITATION_COLUMNS} FROM i JOIN mail_messages m ON m.id = i.mail_id`,
    [invitation.accountId, invitation.id, mailId, expiresAt],
  );
  return toInvitation(rows[0]!);
}

/** Revokes a locked pending invitation; its queued e-mail is withdrawn and its links stop working. */
export async function revokeOperatorInvitation(client: DbClient, accountId: string, invitationId: string): Promise<void> {
  await client.query(`UPDATE operator_invitations SET revoked_at = now() WHERE account_id = $1 AND id = $2`, [accountId, invitationId]);
  await client.query(
    `UPDATE mail_messages m SET status = 'cancelled', last_error = 'invitation revoked'
       FROM operator_invitations i WHERE i.id = $2 AND i.account_id = $1 AND m.id = i.mail_id AND m.status = 'queued'`,
    [accountId, invitationId],
  );
}

export function hashLinkToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Keeps the hash of a token minted for a staff e-mail about to leave; false (nothing kept) when the message no longer
 * announces anything: its invitation was accepted, revoked or resent, or its reset used or replaced.
 */
export async function insertLinkToken(db: Db, mailId: number, token: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO operator_link_tokens (token_hash, mail_id)
     SELECT $1, $2 WHERE EXISTS (SELECT 1 FROM operator_invitations WHERE mail_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now())
                      OR EXISTS (SELECT 1 FROM operator_password_resets WHERE mail_id = $2 AND used_at IS NULL AND expires_at > now())`,
    [hashLinkToken(token), mailId],
  );
  return rowCount === 1;
}

/** Why a link does not work, in the words its page shows. */
export type LinkState = 'unknown' | 'expired' | 'used' | 'revoked' | 'replaced';

/**
 * The invitation a link's token opens, locked for the caller's transaction (or only read, to show the join page), or why
 * it opens none. A token of an older message of the invitation (before a resend) is 'replaced'.
 */
export async function lockInvitationByToken(client: Db, token: string, mode: 'lock' | 'read' = 'lock'): Promise<OperatorInvitation | LinkState> {
  const { rows } = await client.query<InvitationRow & { current: boolean; accepted: boolean; revoked: boolean; expired: boolean }>(
    `SELECT ${INVITATION_COLUMNS}, i.mail_id = t.mail_id AS current, i.accepted_at IS NOT NULL AS accepted, i.revoked_at IS NOT NULL AS revoked,
            i.expires_at <= now() AS expired
       FROM operator_link_tokens t
       JOIN mail_messages tm ON tm.id = t.mail_id AND tm.kind = 'invitation'
       JOIN operator_invitations i ON i.id = (tm.data->>'InvitationID')::uuid AND i.account_id = tm.account_id
       JOIN mail_messages m ON m.id = i.mail_id
      WHERE t.token_hash = $1
      ${mode === 'lock' ? 'FOR UPDATE OF i' : ''}`,
    [hashLinkToken(token)],
  );
  const row = rows[0];
  if (!row) return 'unknown';
  if (row.accepted) return 'used';
  if (row.revoked) return 'revoked';
  if (!row.current) return 'replaced';
  if (row.expired) return 'expired';
  return toInvitation(row);
}

export async function markInvitationAccepted(client: DbClient, accountId: string, invitationId: string, userId: string): Promise<void> {
  await client.query(`UPDATE operator_invitations SET accepted_at = now(), user_id = $3 WHERE account_id = $1 AND id = $2`, [accountId, invitationId, userId]);
}

/**
 * A password reset of a person, sent through one of their users (its account's e-mail), and its e-mail; the person's
 * earlier unused resets, through whichever user, end (only the newest link works).
 */
export async function insertPasswordReset(client: DbClient, user: { id: string; accountId: string; email: string }, lifetimeMs: number): Promise<void> {
  const id = randomUUID();
  const expiresAt = new Date(Date.now() + lifetimeMs);
  await client.query(
    `UPDATE operator_password_resets SET used_at = now()
      WHERE used_at IS NULL AND user_id IN (
        SELECT id FROM operator_users WHERE person_id = (SELECT person_id FROM operator_users WHERE account_id = $1 AND id = $2))`,
    [user.accountId, user.id],
  );
  const mailId = await insertStaffMail(client, user.accountId, 'password-reset', user.email, { ResetID: id, ExpiresAt: expiresAt.toISOString() });
  await client.query(`INSERT INTO operator_password_resets (id, account_id, user_id, expires_at, mail_id) VALUES ($1, $2, $3, $4, $5)`, [
    id,
    user.accountId,
    user.id,
    expiresAt,
    mailId,
  ]);
}

/** The reset a link's token opens (with the user it was sent through, and their person), locked for the caller's transaction, or why it opens none. */
export async function lockPasswordResetByToken(
  client: DbClient,
  token: string,
): Promise<{ id: string; accountId: string; userId: string; personId: string; email: string } | Exclude<LinkState, 'revoked' | 'replaced'>> {
  const { rows } = await client.query<{
    id: string;
    account_id: string;
    user_id: string;
    person_id: string;
    email: string;
    used: boolean;
    expired: boolean;
    disabled: boolean;
  }>(
    `SELECT r.id, r.account_id, r.user_id, u.person_id, u.email, r.used_at IS NOT NULL AS used, r.expires_at <= now() AS expired, u.disabled_at IS NOT NULL AS disabled
       FROM operator_link_tokens t
       JOIN operator_password_resets r ON r.mail_id = t.mail_id
       JOIN operator_users u ON u.id = r.user_id AND u.account_id = r.account_id
      WHERE t.token_hash = $1
      FOR UPDATE OF r`,
    [hashLinkToken(token)],
  );
  const row = rows[0];
  if (!row || row.disabled) return 'unknown';
  if (row.used) return 'used';
  if (row.expired) return 'expired';
  return { id: row.id, accountId: row.account_id, userId: row.user_id, personId: row.person_id, email: row.email };
}

export async function markPasswordResetUsed(client: DbClient, accountId: string, resetId: string): Promise<void> {
  await client.query(`UPDATE operator_password_resets SET used_at = now() WHERE account_id = $1 AND id = $2`, [accountId, resetId]);
}
