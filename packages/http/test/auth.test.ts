// Who calls: the Bearer key and its scope (401/403), the console's session cookie, the same-origin rule for a session's
// writes, the operator roles, and who an Idempotency-Key and a booking change are recorded as coming from. The key and
// session lookups are stand-ins here; the lookups themselves are the db package's.
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import {
  assertSameOrigin,
  authorize,
  authorizeOperator,
  bookingActorOf,
  idempotencyCallerOf,
  operatorActorOf,
  readSessionCookie,
  type AuthContext,
  type KeyVerifier,
  type OperatorUserContext,
  type SessionVerifier,
} from '../src/auth.js';
import { HttpProblem } from '../src/problems.js';

const SECRET = 'bk_live_abc123';

const context = (overrides: Partial<AuthContext> = {}): AuthContext => ({
  keyId: 'key-1',
  accountId: 'account-1',
  accountTimeZone: 'Europe/Lisbon',
  scopes: ['ota'],
  partnerId: null,
  rateLimit: null,
  test: false,
  ...overrides,
});

/** Knows one secret; answers synchronously, as the verifier's cache does, or as a promise. */
function verifierOf(known: AuthContext, options: { async?: boolean } = {}) {
  const asked: string[] = [];
  const verifier: KeyVerifier = {
    verify: (secret) => {
      asked.push(secret);
      const found = secret === SECRET ? known : null;
      return options.async ? Promise.resolve(found) : found;
    },
    forget: () => undefined,
    forgetAll: () => undefined,
  };
  return { verifier, asked };
}

const request = (headers: Record<string, string>, more: Partial<Record<'method' | 'protocol' | 'host', string>> = {}) =>
  ({ method: 'POST', protocol: 'https', host: 'console.example.com', headers, ...more }) as unknown as Request;

async function problemOf(promise: Promise<unknown>): Promise<HttpProblem> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpProblem);
  return error as HttpProblem;
}

function problemFrom(run: () => unknown): HttpProblem {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(HttpProblem);
    return error as HttpProblem;
  }
  throw new Error('expected an HttpProblem, nothing was thrown');
}

describe('authorize', () => {
  it("answers the key's context for a known key with the scope, whether the verifier answers at once or later", async () => {
    for (const async of [false, true]) {
      const known = context();
      expect(await authorize(request({ authorization: `Bearer ${SECRET}` }), verifierOf(known, { async }).verifier, 'ota')).toBe(known);
    }
  });

  it('reads the scheme in any case and after several spaces', async () => {
    for (const header of [`bearer ${SECRET}`, `BEARER ${SECRET}`, `Bearer   ${SECRET}`]) {
      const { verifier, asked } = verifierOf(context());
      await authorize(request({ authorization: header }), verifier, 'ota');
      expect(asked, header).toEqual([SECRET]);
    }
  });

  it('asks for a key, with the Bearer challenge, when none is sent', async () => {
    const problem = await problemOf(authorize(request({}), verifierOf(context()).verifier, 'ota'));
    expect(problem.code).toBe('unauthorized');
    expect(problem.message).toBe('An API key is required: send Authorization: Bearer <API_KEY>.');
    expect(problem.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="api"' });
  });

  it('refuses another scheme or a token that cannot be a key without looking it up', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', `Bearer ${SECRET} extra`, 'Bearer a\tb', `Bearer ${'a'.repeat(513)}`]) {
      const { verifier, asked } = verifierOf(context());
      const problem = await problemOf(authorize(request({ authorization: header }), verifier, 'ota'));
      expect(problem.message, header).toBe('The Authorization header must be of the form: Bearer <API_KEY>.');
      expect(asked).toEqual([]);
    }
  });

  it('says an unknown or revoked key is one, with the invalid_token challenge', async () => {
    const problem = await problemOf(authorize(request({ authorization: 'Bearer bk_unknown' }), verifierOf(context()).verifier, 'ota'));
    expect(problem.code).toBe('unauthorized');
    expect(problem.message).toBe('The API key is unknown or has been revoked.');
    expect(problem.headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' });
  });

  it('forbids a known key without the scope, naming it', async () => {
    const problem = await problemOf(authorize(request({ authorization: `Bearer ${SECRET}` }), verifierOf(context()).verifier, 'usage:write'));
    expect(problem.code).toBe('forbidden');
    expect(problem.message).toBe("This API key lacks the 'usage:write' permission.");
  });
});

describe('readSessionCookie', () => {
  it('finds the session among other cookies', () => {
    expect(readSessionCookie(request({ cookie: 'theme=dark; backbone_session=abc_DEF-123; lang=pt' }))).toBe('abc_DEF-123');
    expect(readSessionCookie(request({ cookie: 'backbone_session=xyz' }))).toBe('xyz');
  });

  it('finds none without the cookie, under a longer name, or with a value that cannot be a session id', () => {
    expect(readSessionCookie(request({}))).toBeNull();
    expect(readSessionCookie(request({ cookie: 'my_backbone_session=abc' }))).toBeNull();
    expect(readSessionCookie(request({ cookie: 'backbone_session=a.b' }))).toBeNull();
    expect(readSessionCookie(request({ cookie: 'backbone_session=' }))).toBeNull();
    expect(readSessionCookie(request({ cookie: `backbone_session=${'a'.repeat(101)}` }))).toBeNull();
  });
});

describe('assertSameOrigin', () => {
  it('lets reads through from anywhere', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) expect(() => assertSameOrigin(request({ origin: 'https://evil.example' }, { method }))).not.toThrow();
  });

  it("takes a write whose Origin is the service's own, as a browser writes it", () => {
    expect(() => assertSameOrigin(request({ origin: 'https://console.example.com' }))).not.toThrow();
    expect(() => assertSameOrigin(request({ origin: 'https://console.example.com:443' }))).not.toThrow();
    expect(() => assertSameOrigin(request({ origin: 'https://console.example.com' }, { host: 'Console.Example.com' }))).not.toThrow();
    expect(() => assertSameOrigin(request({ origin: 'http://127.0.0.1:3000' }, { protocol: 'http', host: '127.0.0.1:3000' }))).not.toThrow();
  });

  it('refuses a write from another site, scheme or port, an opaque origin, or one that is not a URL', () => {
    for (const origin of ['https://evil.example', 'http://console.example.com', 'https://console.example.com:8443', 'null', 'not a url', 'file:///x']) {
      const problem = problemFrom(() => assertSameOrigin(request({ origin })));
      expect(problem.code, origin).toBe('forbidden');
    }
    expect(() => assertSameOrigin(request({ origin: 'https://console.example.com' }, { host: '' }))).toThrow(HttpProblem);
  });

  it('without Origin, takes Sec-Fetch-Site: same-origin and refuses everything else', () => {
    expect(() => assertSameOrigin(request({ 'sec-fetch-site': 'same-origin' }))).not.toThrow();
    expect(() => assertSameOrigin(request({ 'sec-fetch-site': 'same-site' }))).toThrow(HttpProblem);
    expect(() => assertSameOrigin(request({}))).toThrow("Requests that change something must come from the console's own origin.");
  });
});

describe('authorizeOperator', () => {
  const user = (role: OperatorUserContext['role'], passwordMustChange = false): OperatorUserContext => ({
    id: 'user-1',
    personId: 'person-1',
    email: 'owner@example.com',
    role,
    passwordMustChange,
  });
  const sessions = (role: OperatorUserContext['role'] | null, passwordMustChange = false): SessionVerifier => ({
    verify: async (sessionId) =>
      sessionId === 'session1' && role ? { ...context({ keyId: null, scopes: ['admin'] }), user: user(role, passwordMustChange) } : null,
  });
  const admin = context({ scopes: ['admin'] });

  it('takes an admin key as an owner, without a session and without an Origin', async () => {
    const verifiers = { keyVerifier: verifierOf(admin).verifier, sessionVerifier: sessions(null) };
    expect(await authorizeOperator(request({ authorization: `Bearer ${SECRET}` }), verifiers, ['owner'])).toBe(admin);
  });

  it('refuses a key without the admin scope, even with a session cookie beside it', async () => {
    const verifiers = { keyVerifier: verifierOf(context()).verifier, sessionVerifier: sessions('owner') };
    const problem = await problemOf(
      authorizeOperator(request({ authorization: `Bearer ${SECRET}`, cookie: 'backbone_session=session1' }), verifiers, ['owner', 'staff']),
    );
    expect(problem.code).toBe('forbidden');
  });

  it('takes a live session of an allowed role for a same-origin write', async () => {
    const verifiers = { keyVerifier: verifierOf(admin).verifier, sessionVerifier: sessions('staff') };
    const auth = await authorizeOperator(request({ cookie: 'backbone_session=session1', origin: 'https://console.example.com' }), verifiers, [
      'owner',
      'staff',
    ]);
    expect(auth.user).toEqual(user('staff'));
  });

  it('asks to sign in without a live session, or without any way to look one up', async () => {
    const noSession = await problemOf(
      authorizeOperator(request({ cookie: 'backbone_session=other' }), { keyVerifier: verifierOf(admin).verifier, sessionVerifier: sessions('owner') }, [
        'owner',
      ]),
    );
    expect(noSession.code).toBe('unauthorized');
    expect(noSession.message).toBe('Sign in first, or send an admin API key: Authorization: Bearer <API_KEY>.');
    const noVerifier = await problemOf(
      authorizeOperator(request({ cookie: 'backbone_session=session1' }), { keyVerifier: verifierOf(admin).verifier }, ['owner']),
    );
    expect(noVerifier.code).toBe('unauthorized');
  });

  it("refuses a session's write from another origin, and a staff user where only owners may act", async () => {
    const verifiers = { keyVerifier: verifierOf(admin).verifier, sessionVerifier: sessions('staff') };
    const crossSite = await problemOf(
      authorizeOperator(request({ cookie: 'backbone_session=session1', origin: 'https://evil.example' }), verifiers, ['owner', 'staff']),
    );
    expect(crossSite.code).toBe('forbidden');
    const staff = await problemOf(authorizeOperator(request({ cookie: 'backbone_session=session1' }, { method: 'GET' }), verifiers, ['owner']));
    expect(staff.code).toBe('forbidden');
    expect(staff.message).toBe('Only an owner of the account may do this.');
  });

  it('lets a user with a one-time password through only where the operation allows it before the change', async () => {
    const verifiers = { keyVerifier: verifierOf(admin).verifier, sessionVerifier: sessions('owner', true) };
    const read = request({ cookie: 'backbone_session=session1' }, { method: 'GET' });
    const refused = await problemOf(authorizeOperator(read, verifiers, ['owner', 'staff']));
    expect(refused.code).toBe('password-change-required');
    const allowed = await authorizeOperator(read, verifiers, ['owner', 'staff'], true);
    expect(allowed.user).toEqual(user('owner', true));
  });

  it('opens nothing to a session not bound to an account yet, naming the accounts to choose from', async () => {
    const accounts = [{ AccountID: '00000000-0000-4000-8000-000000000001', AccountName: 'Fjord Kayaks' }];
    const verifiers = {
      keyVerifier: verifierOf(admin).verifier,
      sessionVerifier: { verify: async (id: string) => (id === 'session1' ? { unbound: true as const, accounts } : null) },
    };
    for (const beforePasswordChange of [false, true]) {
      const refused = await problemOf(
        authorizeOperator(request({ cookie: 'backbone_session=session1' }, { method: 'GET' }), verifiers, ['owner', 'staff'], beforePasswordChange),
      );
      expect(refused.code).toBe('account-choice-required');
      expect(refused.extensions).toEqual({ Accounts: accounts });
    }
  });
});

describe('who a request is recorded as', () => {
  it("owns an Idempotency-Key by the key's partner, else the signed-in user, else the key", () => {
    expect(idempotencyCallerOf(context({ partnerId: 'partner-1' }))).toBe('partner:partner-1');
    expect(
      idempotencyCallerOf(context({ keyId: null, user: { id: 'user-1', personId: 'person-1', email: 'a@b.c', role: 'owner', passwordMustChange: false } })),
    ).toBe('user:user-1');
    expect(idempotencyCallerOf(context({ scopes: ['usage:write'] }))).toBe('key:key-1');
  });

  it("records a booking change as the key's partner's, else as the operator's (the user, or the admin key)", () => {
    expect(bookingActorOf(context({ partnerId: 'partner-1' }))).toEqual({ kind: 'partner', partnerId: 'partner-1', apiKeyId: 'key-1' });
    expect(
      bookingActorOf(context({ keyId: null, user: { id: 'user-1', personId: 'person-1', email: 'a@b.c', role: 'staff', passwordMustChange: false } })),
    ).toEqual({
      kind: 'operator',
      userId: 'user-1',
      apiKeyId: null,
    });
    expect(bookingActorOf(context({ scopes: ['admin'] }))).toEqual({ kind: 'operator', userId: null, apiKeyId: 'key-1' });
  });

  it("records the operator API's changes as the operator's, even for an admin key that also has a partner", () => {
    expect(operatorActorOf(context({ scopes: ['admin', 'ota'], partnerId: 'partner-1' }))).toEqual({ kind: 'operator', userId: null, apiKeyId: 'key-1' });
  });
});
