// A one-time password (admin CLI, the users page, a reset) signs in once to choose the user's own: until then every
// operation but changing it and signing out answers 403 /password-change-required. Changing checks the current password
// (wrong: 422, counted like a failed sign-in), ends the user's other sessions and is audited; the lockout says minutes.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOperatorUser, resetOperatorPassword } from '@backbone/use-cases';
import { createOperator, PASSWORD, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi, type Operator } from './support.js';

const { db, server } = useOperatorApi({ signIn: { maxFailures: 3, windowSeconds: 900 } });

let operator: Operator;

beforeAll(async () => {
  operator = await createOperator(db.pool);
});

const NEW_PASSWORD = 'my own long password';

async function withOneTimePassword(email: string): Promise<string> {
  const { password } = await createOperatorUser({ pool: db.pool }, { accountId: operator.account.id, email, role: 'staff', actor: { kind: 'cli' } });
  return password;
}

describe('one-time passwords', () => {
  it('allow nothing but changing the password (and signing out) until it is changed', async () => {
    const email = `first-${operator.account.id.slice(0, 8)}@example.com`;
    const oneTime = await withOneTimePassword(email);
    const desk = new SessionClient(server.url);
    expect((await desk.signIn(email, oneTime)).status).toBe(204);
    for (const [method, path] of [
      ['GET', '/api/v2/operator/session'],
      ['GET', '/api/v2/operator/bookings'],
      ['GET', `/api/v2/operator/manifest?Date=2030-01-01`],
    ] as const) {
      const refused = await desk.send(method, path);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/password-change-required`, status: 403 });
    }

    const wrong = await desk.send('POST', '/api/v2/operator/session/password', { CurrentPassword: 'not it at all', NewPassword: NEW_PASSWORD });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([{ field: 'CurrentPassword', message: 'is not your current password.' }]);
    const short = await desk.send('POST', '/api/v2/operator/session/password', { CurrentPassword: oneTime, NewPassword: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([{ field: 'NewPassword', message: 'must be at least 12 characters long.' }]);
    const same = await desk.send('POST', '/api/v2/operator/session/password', { CurrentPassword: oneTime, NewPassword: oneTime });
    expect(same.status).toBe(422);
    expect((await desk.send('GET', '/api/v2/operator/bookings')).status).toBe(403);

    const changed = await desk.send('POST', '/api/v2/operator/session/password', { CurrentPassword: oneTime, NewPassword: NEW_PASSWORD });
    expect(changed.status).toBe(204);
    expect((await desk.send('GET', '/api/v2/operator/session')).body).toMatchObject({ Email: email, Role: 'staff' });
    expect((await desk.send('GET', '/api/v2/operator/bookings')).status).toBe(200);
    expect((await new SessionClient(server.url).signIn(email, oneTime)).status).toBe(401);
    expect((await new SessionClient(server.url).signIn(email, NEW_PASSWORD)).status).toBe(204);

    const { rows } = await db.pool.query<{ action: string }>(`SELECT action FROM audit_entries WHERE account_id = $1 AND subject_label = $2 ORDER BY id`, [
      operator.account.id,
      email,
    ]);
    expect(rows.map((r) => r.action)).toEqual(['user.created', 'password.changed']);
  });

  it('a reset by the CLI makes the user change it again; a password the user chose signs in free', async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const { password } = await resetOperatorPassword(
      { pool: db.pool },
      { accountId: operator.account.id, email: operator.owner.email, actor: { kind: 'cli' } },
    );
    expect((await owner.send('GET', '/api/v2/operator/session')).status).toBe(401);
    const again = new SessionClient(server.url);
    expect((await again.signIn(operator.owner.email, password)).status).toBe(204);
    expect((await again.send('GET', '/api/v2/operator/users')).status).toBe(403);
    expect((await again.send('DELETE', '/api/v2/operator/session')).status).toBe(204);

    await resetOperatorPassword({ pool: db.pool }, { accountId: operator.account.id, email: operator.owner.email, password: PASSWORD, actor: { kind: 'cli' } });
    const free = await signedIn(server.url, operator.owner.email);
    expect((await free.send('GET', '/api/v2/operator/users')).status).toBe(200);
  });

  it("ends the user's other sessions, keeps this one, and refuses an admin key (it has no password)", async () => {
    const first = await signedIn(server.url, operator.staff.email);
    const second = await signedIn(server.url, operator.staff.email);
    const changed = await second.send('POST', '/api/v2/operator/session/password', { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD });
    expect(changed.status).toBe(204);
    expect((await first.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await second.send('GET', '/api/v2/operator/session')).status).toBe(200);
    expect((await second.send('POST', '/api/v2/operator/session/password', { CurrentPassword: NEW_PASSWORD, NewPassword: PASSWORD })).status).toBe(204);

    const byKey = await fetch(`${server.url}/api/v2/operator/session/password`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ CurrentPassword: 'x', NewPassword: NEW_PASSWORD }),
    });
    expect(byKey.status).toBe(403);
  });

  it('counts wrong current passwords like failed sign-ins and says the wait in minutes', async () => {
    const operator = await createOperator(db.pool);
    const desk = await signedIn(server.url, operator.staff.email);
    for (let i = 0; i < 3; i++)
      expect((await desk.send('POST', '/api/v2/operator/session/password', { CurrentPassword: 'a wrong guess', NewPassword: NEW_PASSWORD })).status).toBe(422);
    const locked = await desk.send('POST', '/api/v2/operator/session/password', { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toMatch(/^Too many failed sign-ins; try again in 1[45] minutes\.$/);
    const signIn = await new SessionClient(server.url, server.url).send(
      'POST',
      '/api/v2/operator/session',
      { Email: operator.staff.email, Password: PASSWORD },
      { 'x-forwarded-for': desk.address },
    );
    expect(signIn.status).toBe(429);
    expect(signIn.body.detail).toMatch(/minutes\.$/);
  });
});
