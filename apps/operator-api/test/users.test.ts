// Console users from the operator API (owners): add one with a one-time password that signs in, list, disable (its
// sessions end); staff get 403, and another account's user is a 404. The account's last active owner is never
// disabled (409), also when two owners disable each other at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@backbone/testkit';
import { createOperatorUser } from '@backbone/use-cases';
import { createOperator, PASSWORD, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi, type Operator } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
});

async function userIdOf(email: string): Promise<string> {
  return (await db.pool.query<{ id: string }>('SELECT id FROM operator_users WHERE email = $1', [email])).rows[0]!.id;
}

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

  it("refuses to disable the account's last active owner (409 /last-owner), itself included; its session goes on", async () => {
    const operator = await createOperator(db.pool);
    const owner = await signedIn(server.url, operator.owner.email);
    const self = { UserID: await userIdOf(operator.owner.email) };
    const refused = await owner.send('POST', `/api/v2/operator/users/${self.UserID}/disable`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/last-owner`, status: 409 });
    expect((await owner.send('GET', '/api/v2/operator/session')).status).toBe(200);
    // An admin key acts as an owner: the same refusal.
    const byKey = await fetch(`${server.url}/api/v2/operator/users/${self.UserID}/disable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operator.key}` },
    });
    expect(byKey.status).toBe(409);

    // With a second owner, either may go; the one left may not.
    const second = `second-owner-${operator.account.id.slice(0, 8)}@example.com`;
    const { user } = await createOperatorUser(
      { pool: db.pool },
      { accountId: operator.account.id, email: second, role: 'owner', password: PASSWORD, actor: { kind: 'system' } },
    );
    expect((await owner.send('POST', `/api/v2/operator/users/${user.id}/disable`)).status).toBe(200);
    expect((await owner.send('POST', `/api/v2/operator/users/${self.UserID}/disable`)).status).toBe(409);
    // Disabling an owner already disabled changes nothing and is no conflict.
    expect((await owner.send('POST', `/api/v2/operator/users/${user.id}/disable`)).status).toBe(200);
  });

  it('leaves one active owner when two owners disable each other at once', async () => {
    const operator = await createOperator(db.pool);
    const second = `other-owner-${operator.account.id.slice(0, 8)}@example.com`;
    await createOperatorUser(
      { pool: db.pool },
      { accountId: operator.account.id, email: second, role: 'owner', password: PASSWORD, actor: { kind: 'system' } },
    );
    const first = await signedIn(server.url, operator.owner.email);
    const other = await signedIn(server.url, second);
    const firstId = await userIdOf(operator.owner.email);
    const otherId = await userIdOf(second);

    // Both disables start while a transaction holds both owners' rows, so each reads the other as active before either
    // writes; then the rows are let go.
    const holder = await db.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM operator_users WHERE id = ANY($1) FOR UPDATE', [[firstId, otherId]]);
      const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const answers = Promise.all([
        first.send('POST', `/api/v2/operator/users/${otherId}/disable`),
        other.send('POST', `/api/v2/operator/users/${firstId}/disable`),
      ]);
      // Each waits on the holder, or on the other one that waits on the holder.
      await waitFor('both disables waiting on the held rows', async () => {
        const waiting = await db.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity w
            WHERE $1 = ANY(pg_blocking_pids(w.pid))
               OR EXISTS (SELECT 1 FROM pg_stat_activity d WHERE $1 = ANY(pg_blocking_pids(d.pid)) AND d.pid = ANY(pg_blocking_pids(w.pid)))`,
          [rows[0]!.pid],
        );
        return waiting.rows[0]!.n >= 2;
      });
      await holder.query('ROLLBACK');
      const statuses = (await answers).map((answer) => answer.status).sort();
      expect(statuses).toEqual([200, 409]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
    const { rows: active } = await db.pool.query(`SELECT email FROM operator_users WHERE account_id = $1 AND role = 'owner' AND disabled_at IS NULL`, [
      operator.account.id,
    ]);
    expect(active).toHaveLength(1);
  });
});
