// Bearer API keys and scopes. A key belongs to one account; its account id travels with every request
// into the domain and the repositories, which is what keeps tenants apart.
import type { Request } from 'express';
import type { OperatorRole, OperatorRoles, Scope } from '@backbone/contracts';
import type { BookingActor, OperatorActor } from '@backbone/domain';
import { findActiveApiKey, listPersonAccounts, touchOperatorSession, type ApiKeyRecord, type KeyRateLimitOverride, type Pool } from '@backbone/db';
import { HttpProblem } from './problems.js';

export interface AuthContext {
  /** The API key's id; null for an operator session. */
  keyId: string | null;
  accountId: string;
  accountTimeZone: string;
  scopes: readonly Scope[];
  /** The partner an ota key belongs to (it reads and changes only that partner's bookings); null for other keys. */
  partnerId: string | null;
  /** The key's own rate limit (rate-limits.ts); null for the defaults of its scopes, and for a session. */
  rateLimit: KeyRateLimitOverride | null;
  /** A sandbox (test) key: it books test places and sees only test bookings. False for live keys and sessions. */
  test: boolean;
  /** The signed-in operator user, for a session. */
  user?: OperatorUserContext;
}

const BEARER = 'Bearer ';
// RFC 9110: the scheme is case-insensitive and one or more spaces separate it from the token.
const BEARER_ANY_CASE = /^bearer +/i;
const TOKEN = /^[A-Za-z0-9_\-.~+/]{1,512}=*$/;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' };

export interface KeyVerifier {
  /** The key's context, or null when it is unknown or revoked; synchronous when the answer is cached. */
  verify(secret: string): AuthContext | null | Promise<AuthContext | null>;
  /** Drops a revoked key, or one whose rate limit changed, from the cache: its next request is looked up (key-revocations.ts calls this). */
  forget(keyId: string): void;
  /** Drops every cached key, when revocations may have been missed. */
  forgetAll(): void;
}

/**
 * Looks keys up in PostgreSQL, trusting a verified key for `cacheTtlMs` (0 disables the cache) unless told to forget
 * it. The cache is keyed by secret; forgetting by key id walks it, which is rare (a revocation) and at most 10,000 keys.
 */
export function createKeyVerifier(pool: Pool, cacheTtlMs: number): KeyVerifier {
  const cache = new Map<string, { context: AuthContext; expiresAt: number }>();
  // Moves on whenever keys are forgotten: a lookup that began before must not cache what was read before the revocation.
  let generation = 0;
  const toContext = (key: ApiKeyRecord): AuthContext => ({
    keyId: key.id,
    accountId: key.accountId,
    accountTimeZone: key.accountTimeZone,
    scopes: key.scopes,
    partnerId: key.partnerId,
    rateLimit: key.rateLimit,
    test: key.test,
  });
  const lookUp = async (secret: string, now: number): Promise<AuthContext | null> => {
    const startedIn = generation;
    const key = await findActiveApiKey(pool, secret);
    if (!key) {
      cache.delete(secret);
      return null;
    }
    const context = toContext(key);
    if (cacheTtlMs > 0 && startedIn === generation) {
      if (cache.size > 10_000) cache.clear();
      cache.set(secret, { context, expiresAt: now + cacheTtlMs });
    }
    return context;
  };
  return {
    verify(secret) {
      const now = Date.now();
      const cached = cacheTtlMs > 0 ? cache.get(secret) : undefined;
      if (cached && cached.expiresAt > now) return cached.context;
      return lookUp(secret, now);
    },
    forget(keyId) {
      generation++;
      for (const [secret, cached] of cache) if (cached.context.keyId === keyId) cache.delete(secret);
    },
    forgetAll() {
      generation++;
      cache.clear();
    },
  };
}

/**
 * Who owns an Idempotency-Key sent with this context: the partner of an ota key (its keys may be rotated), otherwise
 * the signed-in user or the API key itself. Another caller sending the same key sends another key.
 */
export function idempotencyCallerOf(auth: AuthContext): string {
  // A partner's test and live keys never share idempotency answers: a test request must not replay a live booking.
  if (auth.partnerId) return `partner:${auth.partnerId}${auth.test ? ':test' : ''}`;
  if (auth.user) return `user:${auth.user.id}`;
  return `key:${auth.keyId}`;
}

/** Who a change to a booking is recorded as made by: the key's partner, else the signed-in user or the admin key. */
export function bookingActorOf(auth: AuthContext): BookingActor {
  if (auth.partnerId) return { kind: 'partner', partnerId: auth.partnerId, apiKeyId: auth.keyId };
  return { kind: 'operator', userId: auth.user?.id ?? null, apiKeyId: auth.keyId };
}

/**
 * Who acts through the operator API: the console user, or the admin key acting as the owner, even a key that also
 * carries a partner's `ota` scope (there it is the operator's script, not the partner).
 */
export function operatorActorOf(auth: AuthContext): OperatorActor {
  return { kind: 'operator', userId: auth.user?.id ?? null, apiKeyId: auth.keyId };
}

/** 401 without a valid key, 403 when the key lacks `scope`; otherwise the key's context. */
export async function authorize(req: Request, verifier: KeyVerifier, scope: Scope): Promise<AuthContext> {
  const header = req.headers.authorization;
  if (!header) throw new HttpProblem('unauthorized', 'An API key is required: send Authorization: Bearer <API_KEY>.', {}, CHALLENGE);
  const secret = bearerToken(header);
  if (!TOKEN.test(secret)) throw new HttpProblem('unauthorized', 'The Authorization header must be of the form: Bearer <API_KEY>.', {}, CHALLENGE);
  const context = await verifier.verify(secret);
  if (!context)
    throw new HttpProblem(
      'unauthorized',
      'The API key is unknown or has been revoked.',
      {},
      { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' },
    );
  if (!context.scopes.includes(scope)) throw new HttpProblem('forbidden', `This API key lacks the '${scope}' permission.`);
  return context;
}

/**
 * What an operator session gives a request: the account and the user's role; or, for a person who signed in with
 * several accounts and has not chosen one yet, only the names of those accounts (the session opens nothing else).
 */
export interface SessionVerifier {
  verify(sessionId: string): Promise<(AuthContext & { user: OperatorUserContext }) | UnboundSession | null>;
}

export interface UnboundSession {
  unbound: true;
  accounts: { AccountID: string; AccountName: string }[];
}

export interface OperatorUserContext {
  id: string;
  /** The person this user is: their e-mail and password are theirs in each of their accounts. */
  personId: string;
  email: string;
  role: OperatorRole;
  /** Signed in with a one-time password: only the operations marked `beforePasswordChange` are allowed. */
  passwordMustChange: boolean;
}

export const SESSION_COOKIE = 'backbone_session';
/** The account whose page sent a console request (its id): a session now bound to another answers 409 `/account-switched`. */
export const SHOWN_ACCOUNT_HEADER = 'x-backbone-account';

export interface SessionLifetimes {
  idleTimeoutMs: number;
  absoluteLifetimeMs: number;
}

/** Sessions in PostgreSQL: each request restarts the idle clock, never past the absolute end. */
export function createSessionVerifier(pool: Pool, lifetimes: SessionLifetimes): SessionVerifier {
  return {
    async verify(sessionId) {
      const session = await touchOperatorSession(pool, sessionId, lifetimes.idleTimeoutMs);
      if (!session) return null;
      if ('unbound' in session) {
        const accounts = await listPersonAccounts(pool, session.personId);
        return { unbound: true, accounts: accounts.map((a) => ({ AccountID: a.accountId, AccountName: a.accountName })) };
      }
      return {
        keyId: null,
        partnerId: null,
        rateLimit: null,
        test: false,
        accountId: session.accountId,
        accountTimeZone: session.accountTimeZone,
        scopes: ['admin'],
        user: { id: session.userId, personId: session.personId, email: session.email, role: session.role, passwordMustChange: session.passwordMustChange },
      };
    },
  };
}

/** The session id in the request's cookie, if any. */
export function readSessionCookie(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === SESSION_COOKIE) {
      const value = part.slice(at + 1).trim();
      return /^[A-Za-z0-9_-]{1,100}$/.test(value) ? value : null;
    }
  }
  return null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuses a state-changing request sent from a page of another origin (cross-site request forgery). Its Origin must be
 * this service's own origin, scheme, host and port alike (an https page must not write to the http service); without
 * an Origin, Sec-Fetch-Site must say same-origin. A request with neither is refused: browsers send Origin on every
 * such fetch, and a client that sends neither is not the console, so it has no business with its session (scripts use
 * an admin key, which is not checked here). The same holds for the sign-in, which has no session yet: a session is
 * only ever used by a browser, and a sign-in posted from another site would sign the victim into the attacker's account.
 */
export function assertSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  let sameOrigin: boolean;
  if (origin !== undefined) {
    const own = ownOrigin(req);
    sameOrigin = own !== null && parsedOrigin(origin) === own;
  } else {
    sameOrigin = req.headers['sec-fetch-site'] === 'same-origin';
  }
  if (!sameOrigin) throw new HttpProblem('forbidden', "Requests that change something must come from the console's own origin.");
}

/**
 * The origin the caller reached: the scheme and host the gateway in front says (X-Forwarded-Proto and X-Forwarded-Host,
 * believed only from a proxy the app's `trust proxy` trusts), else the connection's and the Host header's. Serialised
 * as a browser serialises Origin (lowercase, no default port); null when there is no Host.
 */
function ownOrigin(req: Request): string | null {
  const host = req.host;
  return host ? parsedOrigin(`${req.protocol}://${host}`) : null;
}

function parsedOrigin(value: string): string | null {
  if (value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The operator API's one authorizer: an `admin` API key (Bearer, for scripts; it acts as an owner, and every operation
 * allows owners) or the console's session cookie (same-origin checked on state changes), whose user's role must be
 * one of the operation's `roles`: 403 otherwise. A user who signed in with a one-time password gets 403
 * `/password-change-required` from every operation but those allowed `beforePasswordChange`; a session not bound to an
 * account yet gets 403 `/account-choice-required` from every one, with the accounts to choose from; a request whose
 * page showed another account than the session's (X-Backbone-Account) gets 409 `/account-switched`.
 */
export async function authorizeOperator(
  req: Request,
  verifiers: { keyVerifier: KeyVerifier; sessionVerifier?: SessionVerifier | undefined },
  roles: OperatorRoles,
  beforePasswordChange = false,
): Promise<AuthContext> {
  if (req.headers.authorization !== undefined) return authorize(req, verifiers.keyVerifier, 'admin');
  const sessionId = readSessionCookie(req);
  const context = sessionId && verifiers.sessionVerifier ? await verifiers.sessionVerifier.verify(sessionId) : null;
  if (!context) throw new HttpProblem('unauthorized', 'Sign in first, or send an admin API key: Authorization: Bearer <API_KEY>.', {}, CHALLENGE);
  assertSameOrigin(req);
  if ('unbound' in context)
    throw new HttpProblem('account-choice-required', 'Choose the account to work in first (chooseOperatorAccount).', { Accounts: context.accounts });
  // The console names the account its page shows: after a switch in another tab (one cookie per browser) that page would
  // otherwise read, and write to, the other account under this one's name.
  const shown = req.headers[SHOWN_ACCOUNT_HEADER];
  if (typeof shown === 'string' && shown !== context.accountId)
    throw new HttpProblem('account-switched', 'This browser now works in another account (switched in another tab); reload to see it.', {
      AccountID: context.accountId,
    });
  if (context.user.passwordMustChange && !beforePasswordChange)
    throw new HttpProblem('password-change-required', 'Choose your own password first: the one you signed in with was given to you once.');
  if (!roles.includes(context.user.role)) throw new HttpProblem('forbidden', 'Only an owner of the account may do this.');
  return context;
}

/** The token of a Bearer header, '' when it is another scheme. The usual spelling is checked first, without a regex. */
function bearerToken(header: string): string {
  if (header.startsWith(BEARER) && header.charCodeAt(BEARER.length) !== 32) return header.slice(BEARER.length);
  const scheme = BEARER_ANY_CASE.exec(header);
  return scheme ? header.slice(scheme[0].length) : '';
}
