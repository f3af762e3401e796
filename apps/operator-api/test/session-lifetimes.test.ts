// The session lifetimes as configured (shortened here): a session left alone ends after the idle timeout, and one in
// constant use still ends at its absolute lifetime. Both are far above what a request takes on a loaded machine, and
// the waits are lower bounds (a busy machine only makes them longer), so only the lifetimes decide the answers.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createOperator, signedIn, useOperatorApi } from './support.js';

const IDLE_TIMEOUT_MS = 3000;
const ABSOLUTE_LIFETIME_MS = 6500;
const { db, server } = useOperatorApi({ sessions: { idleTimeoutMs: IDLE_TIMEOUT_MS, absoluteLifetimeMs: ABSOLUTE_LIFETIME_MS } });

describe('session lifetimes', () => {
  it('ends a session left idle for longer than the idle timeout', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.staff.email);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    await sleep(IDLE_TIMEOUT_MS + 300);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(401);
  });

  it('ends a session in constant use at its absolute lifetime', async () => {
    const operator = await createOperator(db.pool);
    // The session begins between these two instants (a sign-in hashes a password: seconds on a loaded machine).
    const signingIn = Date.now();
    const client = await signedIn(server.url, operator.owner.email);
    const signedInAt = Date.now();
    // A request every 200 ms, each far within the idle timeout of the one before, until one is refused.
    let status: number;
    do {
      status = (await client.send('GET', '/api/v2/operator/session')).status;
      if (status === 200) await sleep(200);
    } while (status === 200 && Date.now() - signedInAt < 60_000);
    expect(status).toBe(401);
    // Not before the lifetime, counted from before the sign-in; and at the first request after it, counted from after
    // the sign-in (another lifetime's room for a busy machine's requests).
    expect(Date.now() - signingIn).toBeGreaterThanOrEqual(ABSOLUTE_LIFETIME_MS);
    expect(Date.now() - signedInAt).toBeLessThan(2 * ABSOLUTE_LIFETIME_MS);
  });

  it('gives the cookie the absolute lifetime as its Max-Age', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    expect(client.cookie).not.toBeNull();
    const again = await client.signIn(operator.owner.email);
    expect(again.headers.get('set-cookie')).toMatch(/Max-Age=6(;|$)/);
  });
});
