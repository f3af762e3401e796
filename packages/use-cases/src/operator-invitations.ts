// Users invited by e-mail. An owner invites an address with a name and a role: the invitation and the e-mail that
// carries its link are written in one transaction, and the mail worker mints the link's token as it sends (only its
// hash is kept). The invitee opens the link, chooses a password (the rules of every password) and is signed in: the
// user is created, the invitation accepted and the session opened at once. A link works once, for 48 hours from its
// sending; a resend sends a new link and the old ones stop working; a revoked invitation's links open nothing.
import { randomBytes } from 'node:crypto';
import {
  findOperatorCredentials,
  insertLinkToken,
  insertOperatorInvitation,
  insertOperatorUser,
  listOperatorUsers,
  lockInvitationByToken,
  lockPendingInvitation,
  markInvitationAccepted,
  recordAudit,
  resendOperatorInvitation as writeNewInvitationMail,
  revokeOperatorInvitation as markRevoked,
  withTransaction,
  type LinkState,
  type OperatorInvitation,
  type OperatorRole,
  type Db,
  type OperatorUser,
} from '@backbone/db';
import { DomainError, INVITATION_LIFETIME_MS, ValidationError, type AuditActor } from '@backbone/domain';
import { hashPassword } from './operator-passwords.js';
import { checkPassword, openOperatorSession, type OperatorDeps } from './operator-users.js';

const invitationSubject = (invitation: Pick<OperatorInvitation, 'id' | 'email'>) => ({
  type: 'invitation' as const,
  id: invitation.id,
  label: invitation.email,
});

/** What a link that opens nothing tells its reader, in words (the problem's detail). */
export const LINK_STATE_WORDS: Record<LinkState, string> = {
  unknown: 'This link is not valid. Ask for a new one.',
  expired: 'This link has expired. Ask for a new one.',
  used: 'This link was used already. Sign in, or ask for a new one.',
  revoked: 'This invitation was withdrawn.',
  replaced: 'A newer link was sent for this invitation; use the one in the latest e-mail.',
};

export function linkNotValid(state: LinkState): DomainError {
  return new DomainError('link-not-valid', LINK_STATE_WORDS[state], { Reason: state });
}

function trimmedName(name: string): string {
  const trimmed = name.trim().replace(/\s+/g, ' ');
  if (trimmed.length === 0) throw new ValidationError([{ field: 'Name', message: 'must not be empty.' }]);
  return trimmed;
}

export async function inviteOperatorUser(
  deps: OperatorDeps,
  input: { accountId: string; email: string; name: string; role: OperatorRole; invitedBy: string; actor: AuditActor },
): Promise<OperatorInvitation> {
  const email = input.email.trim().toLowerCase();
  const name = trimmedName(input.name);
  const members = await listOperatorUsers(deps.pool, input.accountId);
  if (members.some((u) => u.email === email)) throw new ValidationError([{ field: 'Email', message: 'is already a user of this account.' }]);
  // One address, one user, for now: an address used in another account could never accept.
  if (await findOperatorCredentials(deps.pool, email)) throw new ValidationError([{ field: 'Email', message: 'is already used by another user.' }]);
  const invitation = await withTransaction(deps.pool, async (client) => {
    const inserted = await insertOperatorInvitation(client, input.accountId, {
      email,
      name,
      role: input.role,
      invitedBy: input.invitedBy,
      lifetimeMs: INVITATION_LIFETIME_MS,
    });
    if (!inserted) return null;
    await recordAudit(client, input.accountId, {
      actor: input.actor,
      action: 'invitation.created',
      subject: invitationSubject(inserted),
      changes: { Email: { From: null, To: email }, Name: { From: null, To: name }, Role: { From: null, To: input.role } },
    });
    return inserted;
  });
  if (!invitation) throw new ValidationError([{ field: 'Email', message: 'has a pending invitation already; resend it instead.' }]);
  return invitation;
}

async function withPendingInvitation<T>(
  deps: OperatorDeps,
  input: { accountId: string; invitationId: string },
  work: (client: Parameters<Parameters<typeof withTransaction>[1]>[0], invitation: OperatorInvitation) => Promise<T>,
): Promise<T> {
  return withTransaction(deps.pool, async (client) => {
    const invitation = await lockPendingInvitation(client, input.accountId, input.invitationId);
    if (!invitation) throw new DomainError('not-found', 'No pending invitation with this id.');
    return work(client, invitation);
  });
}

/** A new e-mail with a new link, valid for 48 hours from now; the links sent before stop working. */
export async function resendOperatorInvitation(
  deps: OperatorDeps,
  input: { accountId: string; invitationId: string; invitedBy: string; actor: AuditActor },
): Promise<OperatorInvitation> {
  return withPendingInvitation(deps, input, async (client, invitation) => {
    const resent = await writeNewInvitationMail(client, invitation, { invitedBy: input.invitedBy, lifetimeMs: INVITATION_LIFETIME_MS });
    await recordAudit(client, input.accountId, {
      actor: input.actor,
      action: 'invitation.resent',
      subject: invitationSubject(invitation),
      changes: { ExpiresAt: { From: invitation.expiresAt, To: resent.expiresAt } },
    });
    return resent;
  });
}

export async function revokeOperatorInvitation(deps: OperatorDeps, input: { accountId: string; invitationId: string; actor: AuditActor }): Promise<void> {
  await withPendingInvitation(deps, input, async (client, invitation) => {
    await markRevoked(client, input.accountId, invitation.id);
    await recordAudit(client, input.accountId, { actor: input.actor, action: 'invitation.revoked', subject: invitationSubject(invitation), changes: {} });
  });
}

/**
 * The invitee's password, from the link's token: the user is created with the invitation's e-mail, name and role, the
 * invitation accepted and a session opened, in one transaction. A link that opens nothing changes nothing (410).
 */
export async function acceptOperatorInvitation(
  deps: OperatorDeps,
  input: { token: string; password: string; absoluteLifetimeMs: number },
): Promise<{ sessionId: string; user: OperatorUser }> {
  checkPassword(input.password);
  const passwordHash = await hashPassword(input.password);
  return withTransaction(deps.pool, async (client) => {
    const invitation = await lockInvitationByToken(client, input.token);
    if (typeof invitation === 'string') throw linkNotValid(invitation);
    const user = await insertOperatorUser(client, invitation.accountId, {
      email: invitation.email,
      name: invitation.name,
      role: invitation.role,
      passwordHash,
      passwordMustChange: false,
    });
    if (!user) throw new ValidationError([{ field: 'Email', message: 'is already used by another user; ask the owner who invited you.' }]);
    await markInvitationAccepted(client, invitation.accountId, invitation.id, user.id);
    const actor = { kind: 'operator' as const, userId: user.id, apiKeyId: null };
    await recordAudit(client, invitation.accountId, { actor, action: 'invitation.accepted', subject: invitationSubject(invitation), changes: {} });
    await recordAudit(client, invitation.accountId, {
      actor,
      action: 'user.created',
      subject: { type: 'user', id: user.id, label: user.email },
      changes: { Email: { From: null, To: user.email }, Name: { From: null, To: user.name }, Role: { From: null, To: user.role } },
    });
    const sessionId = await openOperatorSession(client, user, input.absoluteLifetimeMs);
    return { sessionId, user };
  });
}

/**
 * A token for the link of a staff e-mail (invitation or reset) about to leave, committed before the message goes so that
 * a link sent always opens what it announces; null when the message announces nothing any more (accepted, revoked,
 * resent, used, expired): it is not sent then. Only the token's hash is kept: the clear token leaves in the message alone.
 */
export async function issueStaffLinkToken(db: Db, mailId: number): Promise<string | null> {
  const token = randomBytes(32).toString('base64url');
  return (await insertLinkToken(db, mailId, token)) ? token : null;
}
