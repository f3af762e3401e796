// The usage API as the process production runs (server.ts, configured by its environment): its log lines reach
// stdout with no traffic at all (within a second: packages/logging's test); slow clients are cut off after the
// configured timeouts; a SIGTERM during traffic ends it without waiting out its grace period, with every request line
// and the shutdown lines written. Decided by what the process does, not by how fast: a loaded machine passes too.
import { beforeAll, describe, expect, it } from 'vitest';
import { httpEnv } from '@backbone/config';
import {
  createTestAccount,
  request,
  sendRaw,
  useServiceProcesses,
  useTestDatabase,
  useTestRedis,
  waitFor,
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
      // Under the 65 s a kept-alive connection stays open, so one that held the stop would show as the grace period's end.
      SHUTDOWN_TIMEOUT_MS: '30000',
    });
  });

  it('writes the listening line while it idles, before any request', async () => {
    // Logs are written in batches of 4 KB: without the periodic flush this line would wait for traffic or the exit.
    const listening = await api.waitForLine('"usage API listening"', (line) => line.msg === 'usage API listening');
    expect(api.child.exitCode).toBeNull();
    url = listening.line.url as string;
  });

  it('closes a connection whose body stops coming after REQUEST_TIMEOUT_MS, with a 408 problem, and stores nothing', async () => {
    const head = `POST /api/v2/usage/meters HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${client.key}\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n`;
    const res = await sendRaw(url, `${head}{"Meter":"m",`, { timeoutMs: 120_000 });
    // Closed (after about 2 s) long before the default request timeout (30 s) would have: the configured one applied.
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeLessThan(httpEnv.REQUEST_TIMEOUT_MS.default);
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ type: 'https://problems.activity-backbone.dev/request-timeout', status: 408, instance: '/api/v2/usage/meters' });
    expect(await countEntries(db.pool, client.account.id)).toBe(0);
  });

  it('on SIGTERM stops without waiting out its grace period, answering a request in flight, with every line written', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `usage-process-${i}`);
    for (const id of ids) {
      const res = await request(url, 'POST', '/api/v2/usage/meters', {
        key: client.key,
        body: { Meter: 'process', Usage: 1 },
        headers: { 'x-request-id': id },
      });
      expect(res.status).toBe(201);
    }
    // A keep-alive request still running when the signal comes: its entry waits on a lock this test holds until the
    // shutdown has begun. It is answered, and its connection (fetch keeps it open) does not hold the stop.
    const lock = await db.pool.connect();
    try {
      await lock.query('BEGIN');
      await lock.query('LOCK TABLE usage_entries IN SHARE MODE');
      const inFlight = request(url, 'POST', '/api/v2/usage/meters', {
        key: client.key,
        body: { Meter: 'process', Usage: 1 },
        headers: { 'x-request-id': 'usage-process-in-flight' },
      });
      await waitFor('the entry waiting on the lock', async () => {
        const { rows } = await lock.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'usage_entries'::regclass AND NOT granted`);
        return rows[0]!.n > 0;
      });
      api.child.kill('SIGTERM');
      await api.waitForLine('"shutting down"', (line) => typeof line.msg === 'string' && line.msg.startsWith('shutting down'));
      await lock.query('ROLLBACK');
      expect((await inFlight).status).toBe(201);
    } finally {
      // Closed rather than returned to the pool: whatever failed above, its lock goes with it.
      lock.release(true);
    }
    expect(await api.exited).toEqual({ code: 0, signal: null });

    expect(await countEntries(db.pool, client.account.id)).toBe(ids.length + 1);
    const lines = api.lines().map((l) => l.line);
    expect([...ids, 'usage-process-in-flight'].filter((id) => !lines.some((line) => line.reqId === id && line.msg === 'request completed'))).toEqual([]);
    expect(lines.map((line) => line.msg)).toContain('shutting down: no new connections, finishing in-flight requests');
    expect(lines.map((line) => line.msg)).not.toContain('grace period over, closing remaining connections');
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});
