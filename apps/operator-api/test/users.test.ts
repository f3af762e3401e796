// Console users from the operator API (owners): add one with a one-time password that signs in, list, disable (its
// sessions end); staff get 403, and another account's user is a 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOperator, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi, type Operator } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
});

describe('users', () => {
  it('adds a user whose one-time password signs in, lists it, and disables it (its session ends)', async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const added = await owner.send('POST', '/api/v2/operator/users', { Email: 'New.Staff@example.com', Role: 'staff' });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      Email: 'new.staff@example.com',
      Role: 'staff',
      Disabled: false,
      Password: expect.stringMatching(/^[A-Za-z0-9_-]{20}$/),
    });
    const listed = await owner.send('GET', '/api/v2/operator/users');
    expect(listed.body.map((u: { Email: string }) => u.Email)).toEqual([operator.owner.email, 'new.staff@example.com', operator.staff.email].sort());
    expect(listed.text).not.toContain(added.body.Password);

    const newcomer = new SessionClient(server.url);
    expect((await newcomer.signIn('new.staff@example.com', added.body.Password)).status).toBe(204);
    const disabled = await owner.send('POST', `/api/v2/operator/users/${added.body.UserID}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.Disabled).toBe(true);
    expect((await newcomer.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect((await new SessionClient(server.url).signIn('new.staff@example.com', added.body.Password)).status).toBe(401);
    expect((await owner.send('POST', '/api/v2/operator/users', { Email: 'new.staff@example.com', Role: 'owner' })).status).toBe(422);
  });

  it("refuses staff (403) and keeps the tenant wall (another account's user: 404)", async () => {
    const staff = await signedIn(server.url, operator.staff.email);
    expect((await staff.send('GET', '/api/v2/operator/users')).status).toBe(403);
    expect((await staff.send('POST', '/api/v2/operator/users', { Email: 'x@example.com', Role: 'owner' })).status).toBe(403);
    const owner = await signedIn(server.url, operator.owner.email);
    const { rows } = await db.pool.query('SELECT id FROM operator_users WHERE email = $1', [other.staff.email]);
    const answer = await owner.send('POST', `/api/v2/operator/users/${rows[0].id}/disable`);
    expect(answer.status).toBe(404);
    expect(answer.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    expect((await new SessionClient(server.url).signIn(other.staff.email)).status).toBe(204);
  });
});
