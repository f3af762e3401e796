// How often a session in use is written: its idle clock restarts once the last restart is a hundredth of the idle
// timeout old (18 s of the default 30 minutes), not on every request, so that the console's requests mostly only read
// it; an idle session still ends, and a refused one is not revived.
import { describe, expect, it } from 'vitest';
import { createOperator, signedIn, useOperatorApi } from './support.js';

const IDLE_TIMEOUT_MS = 1_800_000;
const { db, server } = useOperatorApi({ sessions: { idleTimeoutMs: IDLE_TIMEOUT_MS } });

async function setup() {
  const operator = await createOperator(db.pool);
  const client = await signedIn(server.url, operator.owner.email);
  const where = `user_id = (SELECT id FROM operator_users WHERE email = $1)`;
  return {
    client,
    lastSeen: async () =>
      (await db.pool.query<{ at: Date }>(`SELECT last_seen_at AS at FROM operator_sessions WHERE ${where}`, [operator.owner.email])).rows[0]!.at.getTime(),
    lastSeenSecondsAgo: (seconds: number) =>
      db.pool.query(`UPDATE operator_sessions SET last_seen_at = now() - make_interval(secs => $2) WHERE ${where}`, [operator.owner.email, seconds]),
  };
}

describe('session touch', () => {
  it('restarts the idle clock once a hundredth of the idle timeout has passed, then not again within it', async () => {
    const { client, lastSeen, lastSeenSecondsAgo } = await setup();
    await lastSeenSecondsAgo(IDLE_TIMEOUT_MS / 100 / 1000 + 2);
    const before = await lastSeen();
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    const touched = await lastSeen();
    expect(touched).toBeGreaterThan(before + 10_000);

    for (let i = 0; i < 3; i++) expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    expect(await lastSeen()).toBe(touched);
  });

  it('leaves a session seen a moment ago as it is', async () => {
    const { client, lastSeen, lastSeenSecondsAgo } = await setup();
    await lastSeenSecondsAgo(5);
    const before = await lastSeen();
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    expect(await lastSeen()).toBe(before);
  });

  it('refuses a session idle for longer than the timeout and does not revive it', async () => {
    const { client, lastSeen, lastSeenSecondsAgo } = await setup();
    await lastSeenSecondsAgo(IDLE_TIMEOUT_MS / 1000 + 1);
    const before = await lastSeen();
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(401);
    expect(await lastSeen()).toBe(before);
  });
});
