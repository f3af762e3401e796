// A signed-in user changes their own password: the current one is checked (a session left open on a shared desk must
// not be enough to take the account over), counted by the sign-in throttle like a failed sign-in, and the new one
// replaces it. The user's other sessions end; the one it was changed in goes on, no longer bound to change it.
import { deleteOtherOperatorSessions, findOperatorPasswordHash, recordAudit, updateOperatorPassword, withTransaction } from '@backbone/db';
import { DomainError, ValidationError } from '@backbone/domain';
import { SignInError } from './errors.js';
import { checkPassword, userSubject, type OperatorDeps, type SignInThrottle } from './operator-users.js';
import { hashPassword, verifyPassword } from './operator-passwords.js';

export interface OwnPasswordChange {
  accountId: string;
  user: { id: string; email: string };
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
    await deleteOtherOperatorSessions(client, change.accountId, change.user.id, change.sessionId);
    await recordAudit(client, change.accountId, {
      actor: { kind: 'operator', userId: change.user.id, apiKeyId: null },
      action: 'password.changed',
      subject: userSubject({ id: change.user.id, email: change.user.email }),
      changes: {},
    });
  });
}
