// Operator sign-in, sessions and the operator API's doors: cookie attributes, sign-out, idle and absolute expiry,
// the same answer for an unknown e-mail and a wrong password, the throttle, cross-origin refusal, roles and keys.
import { describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { createOperator, PASSWORD, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi } from './support.js';

const { db, server } = useOperatorApi({ signIn: { maxFailures: 3, windowSeconds: 60 } });

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
    expect(me.body).toEqual({ AccountID: operator.account.id, AccountName: operator.account.name, TimeZone: 'Europe/Lisbon', Email: operator.owner.email, Role: 'owner' });
  });

  it('marks the cookie Secure behind https', async () => {
    const operator = await createOperator(db.pool);
    const client = new SessionClient(server.url);
    const answer = await client.send('POST', '/api/v2/operator/session', { Email: operator.owner.email, Password: PASSWORD }, { 'x-forwarded-proto': 'https' });
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
    await disableOperatorUser({ pool: db.pool }, { accountId: operator.account.id, email: operator.staff.email });
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(operator.staff.email)).status).toBe(401);
  });

  it('throttles failed sign-ins per e-mail with 429 and Retry-After, even for the right password', async () => {
    const operator = await createOperator(db.pool);
    for (let i = 0; i < 3; i++) {
      // Each attempt from another address, so only the e-mail's count can be what stops the fourth.
      const answer = await new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: operator.owner.email, Password: 'wrong password!!' }, { 'x-forwarded-for': `10.0.0.${i + 1}` });
      expect(answer.status).toBe(401);
    }
    const blocked = await new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: operator.owner.email, Password: PASSWORD }, { 'x-forwarded-for': '10.0.0.9' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.type).toBe(`${PROBLEM_BASE}/rate-limited`);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('throttles failed sign-ins per address across e-mails', async () => {
    const operator = await createOperator(db.pool);
    const from = { 'x-forwarded-for': '10.9.9.9' };
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      expect((await new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: email, Password: 'whatever-123456' }, from)).status).toBe(401);
    }
    const blocked = await new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: operator.owner.email, Password: PASSWORD }, from);
    expect(blocked.status).toBe(429);
  });

  it('validates the body (422)', async () => {
    const answer = await new SessionClient(server.url).send('POST', '/api/v2/operator/session', { Email: 'a@example.com' });
    expect(answer.status).toBe(422);
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
    await db.pool.query(`UPDATE operator_sessions SET last_seen_at = now() - interval '31 minutes' WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`, [operator.owner.email]);
    await db.pool.query(`UPDATE operator_sessions SET expires_at = now() - interval '1 second' WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`, [operator.staff.email]);
    expect((await idle.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await old.send('GET', '/api/v2/operator/session')).status).toBe(401);
  });

  it('keeps a session alive while it is used', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    await db.pool.query(`UPDATE operator_sessions SET last_seen_at = now() - interval '29 minutes' WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`, [operator.owner.email]);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    const { rows } = await db.pool.query(`SELECT last_seen_at > now() - interval '1 minute' AS fresh FROM operator_sessions WHERE user_id = (SELECT id FROM operator_users WHERE email = $1)`, [operator.owner.email]);
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
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/v2/operator/session', '/api/v2/operator/bookings', '/api/v2/operator/bookings/{Reference}']));
    expect(doc.body.paths['/api/v2/operator/bookings'].get.security).toEqual([{ bearerAuth: ['admin'] }, { sessionCookie: [] }]);
  });
});
