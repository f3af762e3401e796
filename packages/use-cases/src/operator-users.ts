// Operator users and their sessions: create a user (admin CLI, console), reset a password, disable a user, sign in
// (throttled per e-mail and address, with a ceiling per address), choose an account and sign out. A person (one e-mail,
// one password) may be a user of several accounts: a password is the person's, so its change ends the person's sessions
// in every account, and a session is bound to one account at a time. Each use case owns its statements; a password
// change or a disabled user ends sessions in the same transaction, which also writes the change's audit entry (never
// the password nor its hash).
import { randomBytes } from 'node:crypto';
import {
  deleteExpiredOperatorSessions,
  deleteOperatorSession,
  deleteOperatorSessionsOfUser,
  deletePersonSessions,
  disableOperatorUser as markDisabled,
  findOperatorPerson,
  findOperatorUserByEmail,
  findOperatorUserById,
  insertOperatorPerson,
  insertOperatorSession,
  insertOperatorUser,
  listPersonAccounts,
  recordAudit,
  takeLiveOperatorSession,
  updateOperatorPassword,
  withTransaction,
  type OperatorRole,
  type Db,
  type OperatorUser,
  type PersonAccount,
  type Pool,
} from '@backbone/db';
import { DomainError, ValidationError, type AuditActor } from '@backbone/domain';
import { SignInError } from './errors.js';
import { decoyPasswordHash, generatePassword, hashPassword, verifyPassword } from './operator-passwords.js';

export interface OperatorDeps {
  pool: Pool;
}

/** Who is signing in, as the throttle counts them: the e-mail (normalised) and the caller's network address. */
export interface SignInCaller {
  email: string;
  address: string;
}

/**
 * Failed sign-ins counted per e-mail and address together, per address, and per e-mail; sign-ins in progress per
 * address, and the password hashes taken in turns (sign-in-throttle.ts).
 */
export interface SignInThrottle {
  /**
   * Seconds until this e-mail may be tried again from this address, and until the address is under its ceiling (0:
   * now); whether the e-mail failed lately from any address.
   */
  standing(caller: SignInCaller): Promise<{ pairWaitSeconds: number; addressWaitSeconds: number; emailFailedRecently: boolean }>;
  /**
   * A place for this sign-in among its address's, and the function that leaves it; null when the address has as many
   * sign-ins in progress as it may (in this process).
   */
  enter(caller: SignInCaller): (() => void) | null;
  /** Runs `check` (the password's hash) in its turn: the process hashes a few at once, the others wait in line. */
  inTurn<T>(check: () => Promise<T>): Promise<T>;
  recordFailure(caller: SignInCaller): Promise<void>;
  /** After a successful sign-in: the e-mail's counts start again (the address's does not). */
  recordSuccess(caller: SignInCaller): Promise<void>;
}

export const MIN_PASSWORD_LENGTH = 12;

function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function checkPassword(password: string, field = 'Password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new ValidationError([{ field, message: `must be at least ${MIN_PASSWORD_LENGTH} characters long.` }]);
}

/**
 * A new person and their user in the account; `password` omitted: a one-time password is generated and returned (the
 * only time it exists in clear), which its user must replace at the first sign-in. A password is the person's, in every
 * account: an address that is already a person's (a user of another account) is refused rather than given a password
 * someone else chose; such a person joins by an invitation, with their own password.
 */
export async function createOperatorUser(
  deps: OperatorDeps,
  input: { accountId: string; email: string; role: OperatorRole; password?: string; actor: AuditActor },
): Promise<{ user: OperatorUser; password: string }> {
  const password = input.password ?? generatePassword();
  checkPassword(password);
  const email = normaliseEmail(input.email);
  const passwordHash = await hashPassword(password);
  const user = await withTransaction(deps.pool, async (client) => {
    if (await findOperatorUserByEmail(client, input.accountId, email))
      throw new ValidationError([{ field: 'Email', message: 'is already a user of this account.' }]);
    const person = await insertOperatorPerson(client, { email, passwordHash, passwordMustChange: input.password === undefined });
    if (!person) return null;
    const inserted = (await insertOperatorUser(client, input.accountId, { person, role: input.role }))!;
    await recordAudit(client, input.accountId, {
      actor: input.actor,
      action: 'user.created',
      subject: userSubject(inserted),
      changes: { Email: { From: null, To: inserted.email }, Role: { From: null, To: inserted.role } },
    });
    return inserted;
  });
  if (!user) throw new ValidationError([{ field: 'Email', message: 'is already used by another user; invite the address instead.' }]);
  return { user, password };
}

export const userSubject = (user: Pick<OperatorUser, 'id' | 'email'>) => ({ type: 'user' as const, id: user.id, label: user.email });

/** A user of the account, by e-mail (the admin CLI) or id (the operator API); another account's: not found. */
export type UserSelector = { email: string } | { userId: string };

async function userOf(deps: OperatorDeps, accountId: string, which: UserSelector): Promise<OperatorUser> {
  const user =
    'email' in which
      ? await findOperatorUserByEmail(deps.pool, accountId, normaliseEmail(which.email))
      : await findOperatorUserById(deps.pool, accountId, which.userId);
  if (!user) throw new DomainError('not-found', 'User not found.');
  return user;
}

/**
 * A new password (given or generated) for the person behind a user of the account, in every account of theirs; the
 * person's sessions end. A generated one was seen by whoever reset it: it must be replaced at the next sign-in.
 */
export async function resetOperatorPassword(
  deps: OperatorDeps,
  input: { accountId: string; email: string; password?: string; actor: AuditActor },
): Promise<{ user: OperatorUser; password: string }> {
  const user = await userOf(deps, input.accountId, { email: input.email });
  const password = input.password ?? generatePassword();
  checkPassword(password);
  const passwordHash = await hashPassword(password);
  await withTransaction(deps.pool, async (client) => {
    await updateOperatorPassword(client, input.accountId, user.id, passwordHash, input.password === undefined);
    await deletePersonSessions(client, input.accountId, user.id);
    await recordAudit(client, input.accountId, { actor: input.actor, action: 'password.changed', subject: userSubject(user), changes: {} });
  });
  return { user, password };
}

/**
 * Disables a user of the account and ends its sessions; repeating it changes nothing. The account's last active owner is
 * refused (409): an account without one could only be recovered with the admin CLI.
 */
export async function disableOperatorUser(deps: OperatorDeps, input: { accountId: string; actor: AuditActor } & UserSelector): Promise<OperatorUser> {
  const user = await userOf(deps, input.accountId, input);
  await withTransaction(deps.pool, async (client) => {
    const outcome = await markDisabled(client, input.accountId, user.id);
    if (outcome === 'last-owner')
      throw new DomainError('last-owner', `${user.email} is the account's last active owner; add another owner before disabling this one.`);
    if (outcome === 'disabled')
      await recordAudit(client, input.accountId, {
        actor: input.actor,
        action: 'user.disabled',
        subject: userSubject(user),
        changes: { Disabled: { From: false, To: true } },
      });
    await deleteOperatorSessionsOfUser(client, input.accountId, user.id);
  });
  return { ...user, disabled: true };
}

export interface SignInRequest {
  email: string;
  password: string;
  /** The caller's network address, the throttle's second key. */
  address: string;
  absoluteLifetimeMs: number;
}

/**
 * After the password was proven: the accounts the person may sign in to, and the session opened. With one account it
 * is bound to it at once; with several it is bound to none until the person chooses one (chooseOperatorAccount), and
 * opens nothing meanwhile.
 */
export interface SignedIn {
  sessionId: string;
  accounts: PersonAccount[];
  /** The account the session is bound to; null until one is chosen. */
  accountId: string | null;
}

/**
 * Checks the credentials and opens a session: its random id (256 bits) is returned for the cookie and only its hash
 * stored. An unknown e-mail, a wrong password and a person whose every user is disabled are one failure, told apart by
 * nothing (not even time). Throttled: an e-mail that failed too often from this address waits, whatever the password.
 * An address over its ceiling (failures across e-mails: spraying, or a busy office) lets only the right password of an
 * e-mail that has not failed lately through, so the owner behind that address is not locked out by others; a wrong one
 * there is the e-mail's failure too, so each e-mail gets one such try. An address with as many sign-ins in progress as
 * it may is refused at once, before any look-up or hash; the password's hash waits for its turn (SignInThrottle.inTurn).
 */
export async function signIn(deps: OperatorDeps & { throttle: SignInThrottle }, request: SignInRequest): Promise<SignedIn> {
  const caller = { email: normaliseEmail(request.email), address: request.address };
  const leave = deps.throttle.enter(caller);
  // Refused before any look-up or hash, and not a failure: nothing was checked.
  if (!leave) throw new SignInError('rate-limited', 1, 'Too many sign-ins from this address at once; try again in 1 second.');
  try {
    return await checkAndOpenSession(deps, request, caller);
  } finally {
    leave();
  }
}

async function checkAndOpenSession(deps: OperatorDeps & { throttle: SignInThrottle }, request: SignInRequest, caller: SignInCaller): Promise<SignedIn> {
  const standing = await deps.throttle.standing(caller);
  if (standing.pairWaitSeconds > 0) throw new SignInError('rate-limited', standing.pairWaitSeconds);
  const overCeiling = standing.addressWaitSeconds > 0;
  if (overCeiling && standing.emailFailedRecently) throw new SignInError('rate-limited', standing.addressWaitSeconds);
  const person = await findOperatorPerson(deps.pool, caller.email);
  const matches = await deps.throttle.inTurn(async () => verifyPassword(request.password, person?.passwordHash ?? (await decoyPasswordHash())));
  if (!person || !matches || person.accounts.length === 0) {
    await deps.throttle.recordFailure(caller);
    throw overCeiling ? new SignInError('rate-limited', standing.addressWaitSeconds) : new SignInError('invalid-credentials');
  }
  await deps.throttle.recordSuccess(caller);
  return openPersonSession(deps.pool, { id: person.id, accounts: person.accounts }, request.absoluteLifetimeMs);
}

/** The session of a person who proved their password (signing in, a reset): bound at once when they have one account. */
export async function openPersonSession(db: Db, person: { id: string; accounts: PersonAccount[] }, absoluteLifetimeMs: number): Promise<SignedIn> {
  const only = person.accounts.length === 1 ? person.accounts[0]! : null;
  const sessionId = await newSession(db, { personId: person.id, user: only && { id: only.userId, accountId: only.accountId } }, { absoluteLifetimeMs });
  return { sessionId, accounts: person.accounts, accountId: only?.accountId ?? null };
}

/**
 * A new session of a user: its random id (256 bits) is returned for the cookie and only its hash stored. Sessions
 * past their end are refused anyway; each new one clears them out so that the table stays small.
 */
export async function openOperatorSession(db: Db, user: { id: string; accountId: string; personId: string }, absoluteLifetimeMs: number): Promise<string> {
  return newSession(db, { personId: user.personId, user }, { absoluteLifetimeMs });
}

async function newSession(db: Db, session: Parameters<typeof insertOperatorSession>[1], ends: Parameters<typeof insertOperatorSession>[3]): Promise<string> {
  const sessionId = randomBytes(32).toString('base64url');
  await insertOperatorSession(db, session, sessionId, ends);
  await deleteExpiredOperatorSessions(db);
  return sessionId;
}

/**
 * The person behind a live session works in another of their accounts (or, just signed in with several, in the first
 * one they choose): the session is replaced by one bound to their user there, ending when the old one would have (a
 * switch never extends a sign-in). The old session's id stops working, so an id is only ever bound to one account.
 * Null when the session is not live (the caller signs in again); 404 when the account is not one of the person's (a
 * disabled user there, or an account they are no user of: told apart by nothing).
 */
export async function chooseOperatorAccount(
  deps: OperatorDeps,
  input: { sessionId: string; accountId: string; idleTimeoutMs: number },
): Promise<{ sessionId: string } | null> {
  return withTransaction(deps.pool, async (client) => {
    const old = await takeLiveOperatorSession(client, input.sessionId, input.idleTimeoutMs);
    if (!old) return null;
    const chosen = (await listPersonAccounts(client, old.personId)).find((a) => a.accountId === input.accountId);
    if (!chosen) throw new DomainError('not-found', 'You are not a user of this account.');
    const sessionId = await newSession(
      client,
      { personId: old.personId, user: { id: chosen.userId, accountId: chosen.accountId } },
      { expiresAt: old.expiresAt },
    );
    return { sessionId };
  });
}

export async function signOut(deps: OperatorDeps, sessionId: string): Promise<void> {
  await deleteOperatorSession(deps.pool, sessionId);
}
