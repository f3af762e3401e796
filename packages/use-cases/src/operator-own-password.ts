// A signed-in user changes their own password: the current one is checked (a session left open on a shared desk must
// not be enough to take the account over), counted by the sign-in throttle like a failed sign-in, and the new one
// replaces it. The password is the person's, in every account of theirs: their other sessions end, in every account;
// the one it was changed in goes on, no longer bound to change it. Each of their accounts' audit logs records it.
import {
  deletePersonSessions,
  findOperatorPasswordHash,
  listPersonAccounts,
  recordAudit,
  updateOperatorPassword,
  withTransaction,
  type Db,
} from '@backbone/db';
import { DomainError, ValidationError } from '@backbone/domain';
import { SignInError } from './errors.js';
import { checkPassword, userSubject, type OperatorDeps, type SignInThrottle } from './operator-users.js';
import { hashPassword, verifyPassword } from './operator-passwords.js';

export interface OwnPasswordChange {
  accountId: string;
  user: { id: string; email: string; personId: string };
  /** The session the change is made in: it stays signed in. */
  sessionId: string;
  /** The caller's network address, the throttle's second key. */
  address: string;
  currentPassword: string;
  newPassword: string;
}

export async function changeOwnPassword(deps: OperatorDeps & { throttle: SignInThrottle }, change: OwnPasswordChange): Promise<void> {
  const caller = { email: change.user.email, address: change.address };
  const standing = await deps.throttle.standing(caller);
  if (standing.pairWaitSeconds > 0) throw new SignInError('rate-limited', standing.pairWaitSeconds);
  const stored = await findOperatorPasswordHash(deps.pool, change.accountId, change.user.id);
  if (stored === null) throw new DomainError('not-found', 'User not found.');
  const matches = await deps.throttle.inTurn(() => verifyPassword(change.currentPassword, stored));
  if (!matches) {
    await deps.throttle.recordFailure(caller);
    throw new ValidationError([{ field: 'CurrentPassword', message: 'is not your current password.' }]);
  }
  checkPassword(change.newPassword, 'NewPassword');
  if (change.newPassword === change.currentPassword) throw new ValidationError([{ field: 'NewPassword', message: 'must differ from the current password.' }]);
  await deps.throttle.recordSuccess(caller);
  const passwordHash = await hashPassword(change.newPassword);
  await withTransaction(deps.pool, async (client) => {
    await updateOperatorPassword(client, change.accountId, change.user.id, passwordHash, false);
    await deletePersonSessions(client, change.accountId, change.user.id, change.sessionId);
    await recordPasswordEvent(client, { id: change.user.personId, email: change.user.email }, 'password.changed');
  });
}

/**
 * A person's password changed (by them, or by a reset): recorded in the audit log of each account they are a user of,
 * as done by their user there, since it is the way into each.
 */
export async function recordPasswordEvent(db: Db, person: { id: string; email: string }, action: 'password.changed' | 'password.reset'): Promise<void> {
  for (const account of await listPersonAccounts(db, person.id))
    await recordAudit(db, account.accountId, {
      actor: { kind: 'operator', userId: account.userId, apiKeyId: null },
      action,
      subject: userSubject({ id: account.userId, email: person.email }),
      changes: {},
    });
}
