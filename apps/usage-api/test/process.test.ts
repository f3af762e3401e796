// The usage API as the process production runs (server.ts, configured by its environment): its log lines reach
// stdout within about a second, also with no traffic at all; slow clients are cut off after the configured timeouts;
// a SIGTERM during traffic ends it promptly with every request line and the shutdown lines written.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestAccount,
  request,
  sendRaw,
  sendSlowly,
  useServiceProcesses,
  useTestDatabase,
  useTestRedis,
  type ServiceProcess,
  type TestAccount,
} from '@backbone/testkit';
import { countEntries } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const services = useServiceProcesses();

describe('usage API process', () => {
  let api: ServiceProcess;
  let url: string;
  let client: TestAccount;

  beforeAll(async () => {
    client = await createTestAccount(db.pool);
    api = services.spawn('apps/usage-api/src/server.ts', {
      DATABASE_URL: db.databaseUrl,
      DATABASE_SCHEMA: db.schema,
      DATABASE_POOL_SIZE: '2',
      REDIS_URL: redis.redisUrl,
      QUEUE_PREFIX: redis.prefix,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      HEADERS_TIMEOUT_MS: '1000',
      REQUEST_TIMEOUT_MS: '2000',
      CONNECTIONS_CHECK_INTERVAL_MS: '100',
    });
  });

  it('writes the listening line within 1.5 s, without any traffic', async () => {
    const listening = await api.waitForLine('"usage API listening"', (line) => line.msg === 'usage API listening');
    expect(listening.readAt - (listening.line.time as number)).toBeLessThan(1500);
    url = listening.line.url as string;
  });

  it('closes a connection whose body stops coming after REQUEST_TIMEOUT_MS, with a 408 problem, and stores nothing', async () => {
    const head = `POST /api/v2/usage/meters HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${client.key}\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n`;
    const res = await sendRaw(url, `${head}{"Meter":"m",`, { timeoutMs: 5000 });
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeLessThan(2800);
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ type: 'https://problems.activity-backbone.dev/request-timeout', status: 408, instance: '/api/v2/usage/meters' });
    expect(await countEntries(db.pool, client.account.id)).toBe(0);
  });

  it('on SIGTERM stops within 3 s, answering a request in flight, with every line written', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `usage-process-${i}`);
    for (const id of ids) {
      const res = await request(url, 'POST', '/api/v2/usage/meters', {
        key: client.key,
        body: { Meter: 'process', Usage: 1 },
        headers: { 'x-request-id': id },
      });
      expect(res.status).toBe(201);
    }
    // A keep-alive request still running when the signal comes: it is answered, and its connection does not hold the stop.
    const slow = sendSlowly(url, 'POST', '/api/v2/usage/meters', {
      headers: { authorization: `Bearer ${client.key}`, 'content-type': 'application/json', 'x-request-id': 'usage-process-slow' },
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

    expect(await countEntries(db.pool, client.account.id)).toBe(ids.length + 1);
    const lines = api.lines().map((l) => l.line);
    expect([...ids, 'usage-process-slow'].filter((id) => !lines.some((line) => line.reqId === id && line.msg === 'request completed'))).toEqual([]);
    expect(lines.map((line) => line.msg)).toContain('shutting down: no new connections, finishing in-flight requests');
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});
