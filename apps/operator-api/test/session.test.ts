// Operator sign-in, sessions and the operator API's doors: cookie attributes, sign-out, idle and absolute expiry,
// the same answer for an unknown e-mail and a wrong password, the throttle (per e-mail and address, a ceiling per
// address), cross-origin refusal (the whole origin), roles and keys.
import { describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { createOperator, PASSWORD, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi } from './support.js';

const { db, server } = useOperatorApi({ signIn: { maxFailures: 3, maxFailuresPerAddress: 6, windowSeconds: 60 } });

describe('sign-in', () => {
  it('answers 204 with an HttpOnly, SameSite=Strict session cookie that opens the API', async () => {
    const operator = await createOperator(db.pool);
    const client = new SessionClient(server.url);
    const answer = await client.signIn(operator.owner.email.toUpperCase());
    expect(answer.status).toBe(204);
    const cookie = answer.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^backbone_session=[A-Za-z0-9_-]{43};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).not.toMatch(/Secure/);
    const me = await client.send('GET', '/api/v2/operator/session');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      AccountID: operator.account.id,
      AccountName: operator.account.name,
      TimeZone: 'Europe/Lisbon',
      Email: operator.owner.email,
      Role: 'owner',
      Accounts: [{ AccountID: operator.account.id, AccountName: operator.account.name }],
    });
  });

  it('marks the cookie Secure behind https', async () => {
    const operator = await createOperator(db.pool);
    const client = new SessionClient(server.url);
    // The page the browser signs in from is the https one, so its Origin says https too.
    const answer = await client.send(
      'POST',
      '/api/v2/operator/session',
      { Email: operator.owner.email, Password: PASSWORD },
      { 'x-forwarded-proto': 'https', origin: server.url.replace('http:', 'https:') },
    );
    expect(answer.headers.get('set-cookie')).toMatch(/; Secure/);
  });

  it('gives an unknown e-mail and a wrong password the same 401', async () => {
    const operator = await createOperator(db.pool);
    const unknown = await new SessionClient(server.url).signIn('nobody@example.com');
    const wrong = await new SessionClient(server.url).signIn(operator.owner.email, 'wrong password!!');
    for (const answer of [unknown, wrong]) {
      expect(answer.status).toBe(401);
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(answer.headers.get('set-cookie')).toBeNull();
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/invalid-credentials`);
    }
    expect(unknown.body.detail).toBe(wrong.body.detail);
  });

  it('refuses a disabled user like a wrong password', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.staff.email);
    const { disableOperatorUser } = await import('@backbone/use-cases');
    await disableOperatorUser({ pool: db.pool }, { accountId: operator.account.id, email: operator.staff.email, actor: { kind: 'system' } });
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(operator.staff.email)).status).toBe(401);
  });

  // The throttle's tests name their addresses from 10.200.0.0 up; SessionClient's own start at 10.0.0.1.
  const signInFrom = (address: string, email: string, password = PASSWORD) =>
    new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: email, Password: password }, { 'x-forwarded-for': address });

  it('throttles failed sign-ins per e-mail and address with 429 and Retry-After, even for the right password; elsewhere that e-mail still signs in', async () => {
    const operator = await createOperator(db.pool);
    for (let i = 0; i < 3; i++) expect((await signInFrom('10.200.0.1', operator.owner.email, 'wrong password!!')).status).toBe(401);
    const blocked = await signInFrom('10.200.0.1', operator.owner.email);
    expect(blocked.status).toBe(429);
    expect(blocked.body.type).toBe(`${PROBLEM_BASE}/rate-limited`);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // Another e-mail from that address, and that e-mail from another address, are other pairs.
    expect((await signInFrom('10.200.0.1', operator.staff.email)).status).toBe(204);
    expect((await signInFrom('10.200.0.2', operator.owner.email)).status).toBe(204);
  });

  it('does not lock the owner out for the failures of other e-mails from the same address', async () => {
    const operator = await createOperator(db.pool);
    for (const name of ['a', 'b', 'c', 'd', 'e']) expect((await signInFrom('10.201.0.1', `${name}@example.com`, 'whatever-123456')).status).toBe(401);
    expect((await signInFrom('10.201.0.1', operator.owner.email)).status).toBe(204);
  });

  it("over an address's ceiling, lets only the right password of an e-mail without recent failures through", async () => {
    const operator = await createOperator(db.pool);
    const other = await createOperator(db.pool);
    const sprayer = '10.202.0.1';
    // Six e-mails, one failure each: no pair is held, and the address reaches its ceiling (6 in this file).
    for (const email of [operator.staff.email, 'a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com']) {
      expect((await signInFrom(sprayer, email, 'wrong password!!')).status).toBe(401);
    }
    // An e-mail that failed from there, or lately from anywhere, waits even with its right password.
    const failedHere = await signInFrom(sprayer, operator.staff.email);
    expect(failedHere.status).toBe(429);
    expect(Number(failedHere.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(failedHere.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await signInFrom('10.202.0.2', other.owner.email, 'wrong password!!')).status).toBe(401);
    expect((await signInFrom(sprayer, other.owner.email)).status).toBe(429);
    // An e-mail without failures gets through with its right password; a wrong one is refused as throttled and spends
    // the e-mail's one try there.
    expect((await signInFrom(sprayer, operator.owner.email)).status).toBe(204);
    expect((await signInFrom(sprayer, other.staff.email, 'wrong password!!')).status).toBe(429);
    expect((await signInFrom(sprayer, other.staff.email)).status).toBe(429);
    expect((await signInFrom(sprayer, 'f@example.com', 'whatever-123456')).status).toBe(429);
    // From another address every one of them signs in.
    expect((await signInFrom('10.202.0.3', operator.staff.email)).status).toBe(204);
    expect((await signInFrom('10.202.0.3', other.staff.email)).status).toBe(204);
  });

  it('counts an IPv6 caller by its /64', async () => {
    const operator = await createOperator(db.pool);
    for (const host of ['1', '2', 'abcd:1']) expect((await signInFrom(`2001:db8:200:1::${host}`, operator.owner.email, 'wrong password!!')).status).toBe(401);
    expect((await signInFrom('2001:db8:200:1:ffff::9', operator.owner.email)).status).toBe(429);
    expect((await signInFrom('2001:db8:200:2::1', operator.owner.email)).status).toBe(204);
  });

  it('validates the body (422)', async () => {
    const answer = await new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: 'a@example.com' });
    expect(answer.status).toBe(422);
  });

  it('refuses a NUL or a lone surrogate in the e-mail or password with 422, not a 500', async () => {
    const operator = await createOperator(db.pool);
    const bodies = [
      { Email: 'a\u0000b@x.com', Password: 'x' },
      { Email: '\ud800@x.com', Password: 'x' },
      { Email: operator.owner.email, Password: `${PASSWORD}\u0000` },
      { Email: operator.owner.email, Password: '\udfff' },
    ];
    for (const body of bodies) {
      const answer = await new SessionClient(server.url).send('POST', '/api/v2/operator/session', body);
      expect(answer.status, JSON.stringify(body)).toBe(422);
      expect(answer.headers.get('content-type')).toMatch(/application\/problem\+json/);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
  });
});

describe('sessions', () => {
  it('ends on sign-out: the old cookie no longer works and the answer clears it', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    const cookie = client.cookie!;
    const out = await client.send('DELETE', '/api/v2/operator/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/backbone_session=;/);
    const replay = await request(server.url, 'GET', '/api/v2/operator/session', { headers: { cookie } });
    expect(replay.status).toBe(401);
    expect(replay.body.type).toBe(`${PROBLEM_BASE}/unauthorized`);
  });

  it('ends after the idle timeout and at the absolute end', async () => {
    const operator = await createOperator(db.pool);
    const idle = await signedIn(server.url, operator.owner.email);
    const old = await signedIn(server.url, operator.staff.email);
    expect((await idle.send('GET', '/api/v2/operator/session')).status).toBe(200);
    // Move the clocks instead of waiting: one session last seen 31 minutes ago, the other past its absolute end.
    await db.pool.query(
      `UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes' WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`,
      [operator.owner.email],
    );
    await db.pool.query(
      `UPDATE operator_sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`,
      [operator.staff.email],
    );
    expect((await idle.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await old.send('GET', '/api/v2/operator/session')).status).toBe(401);
  });

  it('keeps a session alive while it is used', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    await db.pool.query(
      `UPDATE operator_sessions SET last_seen_at = now() - interval '29 minutes' WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`,
      [operator.owner.email],
    );
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    const { rows } = await db.pool.query(
      `SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM operator_sessions WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`,
      [operator.owner.email],
    );
    expect(rows[0].fresh).toBe(true);
  });

  it('refuses a state-changing request from another origin (403), with the session cookie', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    const evil = new SessionClient(server.url, 'https://evil.example');
    evil.cookie = client.cookie;
    const answer = await evil.send('DELETE', '/api/v2/operator/session');
    expect(answer.status).toBe(403);
    expect(answer.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
    const crossSite = await request(server.url, 'DELETE', '/api/v2/operator/session', { headers: { cookie: client.cookie!, 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.status).toBe(403);
    // Still signed in: nothing happened.
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    // A sign-in posted from another site's page is refused as well (login CSRF).
    expect((await new SessionClient(server.url, 'https://evil.example').signIn(operator.owner.email)).status).toBe(403);
  });

  it('takes the host the gateway forwards (X-Forwarded-Host, with its port) as its own origin', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    const behindGateway = new SessionClient(server.url, 'http://console.example:8080');
    behindGateway.cookie = client.cookie;
    expect((await behindGateway.send('DELETE', '/api/v2/operator/session', undefined, { 'x-forwarded-host': 'console.example:8080' })).status).toBe(204);
  });

  it('compares the whole origin: another scheme or port is another origin; a default port is no port', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    const from = (origin: string, headers: Record<string, string> = {}) => {
      const other = new SessionClient(server.url, origin);
      other.cookie = client.cookie;
      return other.send('POST', '/api/v2/operator/sales', {}, headers);
    };
    const port = new URL(server.url).port;
    // 403 before the body is read; 422 (the empty sale) means the request got past the check.
    expect((await from(server.url.replace('http:', 'https:'))).status).toBe(403);
    expect((await from(`http://127.0.0.1:${Number(port) + 1}`)).status).toBe(403);
    expect((await from(`http://localhost:${port}`)).status).toBe(403);
    expect((await from('null')).status).toBe(403);
    expect((await from('http://console.example', { 'x-forwarded-host': 'console.example:80' })).status).toBe(422);
    expect((await from('https://console.example', { 'x-forwarded-host': 'console.example:443', 'x-forwarded-proto': 'https' })).status).toBe(422);
    expect((await from('http://console.example', { 'x-forwarded-host': 'console.example', 'x-forwarded-proto': 'https' })).status).toBe(403);
    expect((await from('http://console.example', { 'x-forwarded-host': 'Console.Example' })).status).toBe(422);
  });

  it('refuses a state-changing request with neither Origin nor Sec-Fetch-Site: same-origin, with the session cookie', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    const bare = await request(server.url, 'DELETE', '/api/v2/operator/session', { headers: { cookie: client.cookie! } });
    expect(bare.status).toBe(403);
    expect(bare.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    // A browser that sent no Origin but says the request is same-origin is believed; reading needs neither.
    expect((await request(server.url, 'GET', '/api/v2/operator/session', { headers: { cookie: client.cookie! } })).status).toBe(200);
    expect(
      (await request(server.url, 'DELETE', '/api/v2/operator/session', { headers: { cookie: client.cookie!, 'sec-fetch-site': 'same-origin' } })).status,
    ).toBe(204);
  });

  it('refuses a sign-in with neither Origin nor Sec-Fetch-Site: same-origin (a session is for the console; scripts use an admin key)', async () => {
    const operator = await createOperator(db.pool);
    const body = { Email: operator.owner.email, Password: PASSWORD };
    const bare = await request(server.url, 'POST', '/api/v2/operator/session', { body, headers: { 'x-forwarded-for': '10.77.0.1' } });
    expect(bare.status).toBe(403);
    expect(bare.headers.get('set-cookie')).toBeNull();
    const sameOrigin = await request(server.url, 'POST', '/api/v2/operator/session', {
      body,
      headers: { 'x-forwarded-for': '10.77.0.1', 'sec-fetch-site': 'same-origin' },
    });
    expect(sameOrigin.status).toBe(204);
  });

  it('does not check the origin of a request with an admin key (not a browser)', async () => {
    const operator = await createOperator(db.pool);
    const admin = await operator.keyWith(['admin']);
    const answer = await request(server.url, 'POST', '/api/v2/operator/sales', { key: admin, body: {}, headers: { origin: 'https://evil.example' } });
    expect(answer.status).toBe(422);
    expect((await request(server.url, 'POST', '/api/v2/operator/sales', { key: admin, body: {} })).status).toBe(422);
  });

  it('answers 401 without a session or key, and with a forged cookie', async () => {
    expect((await request(server.url, 'GET', '/api/v2/operator/bookings')).status).toBe(401);
    expect((await request(server.url, 'GET', '/api/v2/operator/bookings', { headers: { cookie: 'backbone_session=forged' } })).status).toBe(401);
  });
});

describe('API keys on the operator API', () => {
  it('takes an admin-scoped key (acting as an owner) and refuses other scopes with 403', async () => {
    const operator = await createOperator(db.pool);
    const admin = await operator.keyWith(['admin']);
    const ota = await operator.keyWith(['ota']);
    const me = await request(server.url, 'GET', '/api/v2/operator/session', { key: admin });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ Email: null, Role: 'owner' });
    expect((await request(server.url, 'GET', '/api/v2/operator/bookings', { key: ota })).status).toBe(403);
  });

  it('lists the operator operations in the OpenAPI document', async () => {
    const doc = await request(server.url, 'GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/v2/operator/session', '/api/v2/operator/bookings', '/api/v2/operator/bookings/{Reference}']),
    );
    expect(doc.body.paths['/api/v2/operator/bookings'].get.security).toEqual([{ bearerAuth: ['admin'] }, { sessionCookie: [] }]);
  });
});
