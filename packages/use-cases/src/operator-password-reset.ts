// A forgotten password, reset by e-mail. Asking sends a link to the address when it is a user's, and answers the same
// whether or not it is, so the form tells nobody which addresses have accounts. Requests are counted per address and
// per e-mail (PasswordResetThrottle): past the e-mail's budget no more e-mails go to it (the answer stays the same),
// past the address's the caller is refused (429). The link works once, for an hour; only the newest link of a user
// works. Choosing the new password ends every session of the user, records the change, and signs this browser in.
import {
  deleteOperatorSessionsOfUser,
  findOperatorCredentials,
  insertPasswordReset,
  lockPasswordResetByToken,
  markPasswordResetUsed,
  recordAudit,
  updateOperatorPassword,
  withTransaction,
} from '@backbone/db';
import { PASSWORD_RESET_LIFETIME_MS } from '@backbone/domain';
import { SignInError, waitInWords } from './errors.js';
import { linkNotValid } from './operator-invitations.js';
import { hashPassword } from './operator-passwords.js';
import { checkPassword, openOperatorSession, userSubject, type OperatorDeps, type SignInCaller } from './operator-users.js';

/** Password reset requests counted per e-mail and per address (Redis, shared by every operator API process). */
export interface PasswordResetThrottle {
  /**
   * Counts one request: 'send' within both budgets, 'quiet' past the e-mail's (nothing is sent, nothing said), or the
   * seconds the address must wait past its own.
   */
  spend(caller: SignInCaller): Promise<'send' | 'quiet' | { waitSeconds: number }>;
}

export async function requestPasswordReset(
  deps: OperatorDeps & { resetThrottle: PasswordResetThrottle },
  input: { email: string; address: string },
): Promise<void> {
  const email = input.email.trim().toLowerCase();
  const verdict = await deps.resetThrottle.spend({ email, address: input.address });
  if (typeof verdict === 'object')
    throw new SignInError(
      'rate-limited',
      verdict.waitSeconds,
      `Too many password resets asked from this address; try again in ${waitInWords(verdict.waitSeconds)}.`,
    );
  if (verdict === 'quiet') return;
  const user = await findOperatorCredentials(deps.pool, email);
  if (!user || user.disabled) return;
  await withTransaction(deps.pool, (client) => insertPasswordReset(client, user, PASSWORD_RESET_LIFETIME_MS));
}

/**
 * The new password, from the link's token: set, the link used, every session of the user ended, the change audited and
 * a new session opened, in one transaction. A link that opens nothing changes nothing (410).
 */
export async function completePasswordReset(
  deps: OperatorDeps,
  input: { token: string; newPassword: string; absoluteLifetimeMs: number },
): Promise<{ sessionId: string }> {
  checkPassword(input.newPassword, 'NewPassword');
  const passwordHash = await hashPassword(input.newPassword);
  return withTransaction(deps.pool, async (client) => {
    const reset = await lockPasswordResetByToken(client, input.token);
    if (typeof reset === 'string') throw linkNotValid(reset);
    await updateOperatorPassword(client, reset.accountId, reset.userId, passwordHash, false);
    await markPasswordResetUsed(client, reset.accountId, reset.id);
    await deleteOperatorSessionsOfUser(client, reset.accountId, reset.userId);
    await recordAudit(client, reset.accountId, {
      actor: { kind: 'operator', userId: reset.userId, apiKeyId: null },
      action: 'password.reset',
      subject: userSubject({ id: reset.userId, email: reset.email }),
      changes: {},
    });
    const sessionId = await openOperatorSession(client, { id: reset.userId, accountId: reset.accountId }, input.absoluteLifetimeMs);
    return { sessionId };
  });
}
