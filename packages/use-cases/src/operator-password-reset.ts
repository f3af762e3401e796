// A forgotten password, reset by e-mail. Asking sends a link to the address when it is a person's (a user of some
// account, not disabled), and answers the same whether or not it is, so the form tells nobody which addresses have
// accounts. The password is the person's: the new one is theirs in every account, and every session of theirs ends. Requests are counted per address and
// per e-mail (PasswordResetThrottle): past the e-mail's budget no more e-mails go to it (the answer stays the same),
// past the address's the caller is refused (429). The link works once, for an hour; only the newest link of a user
// works. Choosing the new password ends every session of the person, records the change in the audit log of each of their
// accounts, and signs this browser in as signing in does (with several accounts, to choose one).
import {
  deletePersonSessions,
  findOperatorPerson,
  insertPasswordReset,
  listPersonAccounts,
  lockPasswordResetByToken,
  markPasswordResetUsed,
  updateOperatorPassword,
  withTransaction,
} from '@backbone/db';
import { PASSWORD_RESET_LIFETIME_MS } from '@backbone/domain';
import { SignInError, waitInWords } from './errors.js';
import { linkNotValid } from './operator-invitations.js';
import { hashPassword } from './operator-passwords.js';
import { recordPasswordEvent } from './operator-own-password.js';
import { checkPassword, openPersonSession, type OperatorDeps, type SignedIn, type SignInCaller } from './operator-users.js';

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
  const person = await findOperatorPerson(deps.pool, email);
  // The e-mail leaves through the first of the person's accounts (by name): its sender settings carry it.
  const through = person?.accounts[0];
  if (!person || !through) return;
  await withTransaction(deps.pool, (client) =>
    insertPasswordReset(client, { id: through.userId, accountId: through.accountId, email: person.email }, PASSWORD_RESET_LIFETIME_MS),
  );
}

/**
 * The new password, from the link's token: set for the person, the link used, every session of the person ended, the
 * change audited and a new session opened (bound at once when they have one account), in one transaction. A link that
 * opens nothing changes nothing (410).
 */
export async function completePasswordReset(deps: OperatorDeps, input: { token: string; newPassword: string; absoluteLifetimeMs: number }): Promise<SignedIn> {
  checkPassword(input.newPassword, 'NewPassword');
  const passwordHash = await hashPassword(input.newPassword);
  return withTransaction(deps.pool, async (client) => {
    const reset = await lockPasswordResetByToken(client, input.token);
    if (typeof reset === 'string') throw linkNotValid(reset);
    await updateOperatorPassword(client, reset.accountId, reset.userId, passwordHash, false);
    await markPasswordResetUsed(client, reset.accountId, reset.id);
    await deletePersonSessions(client, reset.accountId, reset.userId);
    const person = { id: reset.personId, email: reset.email };
    await recordPasswordEvent(client, person, 'password.reset');
    return openPersonSession(client, { id: person.id, accounts: await listPersonAccounts(client, person.id) }, input.absoluteLifetimeMs);
  });
}
