// The usage API as the process production runs: its log lines reach stdout within about a second, also with no
// traffic at all, and a SIGTERM during traffic ends it promptly with every request line and the shutdown lines written.
import { describe, expect, it } from 'vitest';
import { createTestAccount, request, sendSlowly, useServiceProcesses, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { countEntries } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const services = useServiceProcesses();

describe('usage API process', () => {
  it('writes the listening line within 1.5 s without traffic; on SIGTERM it stops within 3 s, every line written', async () => {
    const { account, key } = await createTestAccount(db.pool);
    const api = services.spawn('apps/usage-api/src/server.ts', {
      DATABASE_URL: db.databaseUrl,
      DATABASE_SCHEMA: db.schema,
      DATABASE_POOL_SIZE: '2',
      REDIS_URL: redis.redisUrl,
      QUEUE_PREFIX: redis.prefix,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
    });
    const listening = await api.waitForLine('"usage API listening"', (line) => line.msg === 'usage API listening');
    expect(listening.readAt - (listening.line.time as number)).toBeLessThan(1500);

    const url = listening.line.url as string;
    const ids = Array.from({ length: 25 }, (_, i) => `usage-process-${i}`);
    for (const id of ids) {
      const res = await request(url, 'POST', '/api/v2/usage/meters', { key, body: { Meter: 'process', Usage: 1 }, headers: { 'x-request-id': id } });
      expect(res.status).toBe(201);
    }
    // A keep-alive request still running when the signal comes: it is answered, and its connection does not hold the stop.
    const slow = sendSlowly(url, 'POST', '/api/v2/usage/meters', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'usage-process-slow' },
      parts: ['{"Meter":"process",', '"Usage":1}'],
    });
    await slow.sentFirstPart;
    const signalledAt = Date.now();
    api.child.kill('SIGTERM');
    await api.waitForLine('"shutting down"', (line) => typeof line.msg === 'string' && line.msg.startsWith('shutting down'), 2000);
    expect((await slow.finish()).status).toBe(201);
    expect(await api.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(3000);
    slow.close();

    expect(await countEntries(db.pool, account.id)).toBe(ids.length + 1);
    const lines = api.lines().map((l) => l.line);
    expect([...ids, 'usage-process-slow'].filter((id) => !lines.some((line) => line.reqId === id && line.msg === 'request completed'))).toEqual([]);
    expect(lines.map((line) => line.msg)).toContain('shutting down: no new connections, finishing in-flight requests');
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});
