// Users invited by e-mail. An owner invites an address with a name and a role: the invitation and the e-mail that
// carries its link are written in one transaction, and the mail worker mints the link's token as it sends (only its
// hash is kept). Inviting an address that is already a person's elsewhere is inviting any address: the same checks,
// the same work, the same answer, so an invitation tells the owner nothing about other accounts. The invitee opens the
// link: a new person chooses a password; a person who already has one (a user of another account) proves it instead
// (throttled as a sign-in), and their password is never replaced from an invitation's link, which anyone holding the
// e-mail could open. Either way the user is created, the invitation accepted and a session of that account opened at
// once. A link works once, for 48 hours from its sending; a resend sends a new link and the old ones stop working; a
// revoked invitation's links open nothing.
import { randomBytes } from 'node:crypto';
import {
  findAccount,
  findOperatorPerson,
  findOperatorUserByEmail,
  insertLinkToken,
  insertOperatorInvitation,
  insertOperatorPerson,
  insertOperatorUser,
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
import { SignInError } from './errors.js';
import { hashPassword, verifyPassword } from './operator-passwords.js';
import { checkPassword, openOperatorSession, type OperatorDeps, type SignInThrottle } from './operator-users.js';

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
  // Only this account's users are looked at: whether the address is a person's elsewhere changes nothing here.
  if (await findOperatorUserByEmail(deps.pool, input.accountId, email))
    throw new ValidationError([{ field: 'Email', message: 'is already a user of this account.' }]);
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

/** What an invitation's join page shows: the invitation, its account, and whether the invitee has a password already. */
export interface InvitationView {
  invitation: OperatorInvitation;
  accountName: string;
  /** The address is a person's already (a user of another account): they join with their password, not a new one. */
  hasPassword: boolean;
}

/**
 * The invitation a link opens, for its join page (410 when it opens none). Only the holder of the link (the e-mail's
 * reader) learns whether the address has a password: it is their own address.
 */
export async function openOperatorInvitation(deps: OperatorDeps, input: { token: string }): Promise<InvitationView> {
  const invitation = await lockInvitationByToken(deps.pool, input.token, 'read');
  if (typeof invitation === 'string') throw linkNotValid(invitation);
  const [account, person] = await Promise.all([findAccount(deps.pool, invitation.accountId), findOperatorPerson(deps.pool, invitation.email)]);
  return { invitation, accountName: account?.name ?? '', hasPassword: person !== null };
}

/**
 * Accepts an invitation from its link's token. A new person's password is set (the rules of every password); a person
 * who has one must give it: it is checked and counted like a sign-in (a wrong one is a failure of that e-mail at this
 * address, 422 on `Password`; too many wait, 429), and it is never replaced. The user is created with the
 * invitation's name and role, the invitation accepted and a session of its account opened, in one transaction. A link
 * that opens nothing changes nothing (410).
 */
export async function acceptOperatorInvitation(
  deps: OperatorDeps & { throttle: SignInThrottle },
  input: { token: string; password: string; address: string; absoluteLifetimeMs: number },
): Promise<{ sessionId: string; user: OperatorUser }> {
  const { invitation } = await openOperatorInvitation(deps, input);
  const existing = await findOperatorPerson(deps.pool, invitation.email);
  const passwordHash = existing ? null : await newPasswordHash(input.password);
  if (existing) await provePassword(deps, { email: existing.email, address: input.address, password: input.password, stored: existing.passwordHash });
  return withTransaction(deps.pool, async (client) => {
    const locked = await lockInvitationByToken(client, input.token);
    if (typeof locked === 'string') throw linkNotValid(locked);
    const person = existing ?? (await insertOperatorPerson(client, { email: locked.email, passwordHash: passwordHash!, passwordMustChange: false }));
    // Made a person by another invitation's acceptance since the password was checked: that one's password counts now.
    if (!person)
      throw new ValidationError([
        { field: 'Password', message: 'was just chosen for this address by another invitation; sign in with it, then open this link again.' },
      ]);
    const user = await insertOperatorUser(client, locked.accountId, { person, name: locked.name, role: locked.role });
    if (!user) throw new ValidationError([{ field: 'Email', message: 'is already a user of this account; sign in instead.' }]);
    await markInvitationAccepted(client, locked.accountId, locked.id, user.id);
    const actor = { kind: 'operator' as const, userId: user.id, apiKeyId: null };
    await recordAudit(client, locked.accountId, { actor, action: 'invitation.accepted', subject: invitationSubject(locked), changes: {} });
    await recordAudit(client, locked.accountId, {
      actor,
      action: 'user.created',
      subject: { type: 'user', id: user.id, label: user.email },
      changes: { Email: { From: null, To: user.email }, Name: { From: null, To: user.name }, Role: { From: null, To: user.role } },
    });
    const sessionId = await openOperatorSession(client, user, input.absoluteLifetimeMs);
    return { sessionId, user };
  });
}

async function newPasswordHash(password: string): Promise<string> {
  checkPassword(password);
  return hashPassword(password);
}

/** An existing person's password, checked as a sign-in checks it (the same throttle, the same turns for the hash). */
async function provePassword(deps: { throttle: SignInThrottle }, check: { email: string; address: string; password: string; stored: string }): Promise<void> {
  const caller = { email: check.email, address: check.address };
  const standing = await deps.throttle.standing(caller);
  if (standing.pairWaitSeconds > 0) throw new SignInError('rate-limited', standing.pairWaitSeconds);
  if (!(await deps.throttle.inTurn(() => verifyPassword(check.password, check.stored)))) {
    await deps.throttle.recordFailure(caller);
    throw new ValidationError([{ field: 'Password', message: 'is not the one you sign in to the console with.' }]);
  }
  await deps.throttle.recordSuccess(caller);
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
