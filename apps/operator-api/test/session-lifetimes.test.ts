// The session lifetimes as configured (shortened here): a session left alone ends after the idle timeout, and one in
// constant use still ends at its absolute lifetime.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createOperator, signedIn, useOperatorApi } from './support.js';

const { db, server } = useOperatorApi({ sessions: { idleTimeoutMs: 1000, absoluteLifetimeMs: 2500 } });

describe('session lifetimes', () => {
  it('ends a session left idle for longer than the idle timeout', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.staff.email);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
    await sleep(1300);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(401);
  });

  it('ends a session in constant use at its absolute lifetime', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    const started = Date.now();
    while (Date.now() - started < 2000) {
      expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(200);
      await sleep(400);
    }
    await sleep(700);
    expect((await client.send('GET', '/api/v2/operator/session')).status).toBe(401);
  });

  it('gives the cookie the absolute lifetime as its Max-Age', async () => {
    const operator = await createOperator(db.pool);
    const client = await signedIn(server.url, operator.owner.email);
    expect(client.cookie).not.toBeNull();
    const again = await client.signIn(operator.owner.email);
    expect(again.headers.get('set-cookie')).toMatch(/Max-Age=2(;|$)/);
  });
});
