// The partner API as the process production runs (server.ts, configured by its environment): its log lines reach
// stdout with no traffic at all (within a second: packages/logging's test); slow clients are cut off after the
// configured timeouts; a SIGTERM during traffic ends it without waiting out its grace period, with every request line
// and the shutdown lines written. Decided by what the process does, not by how fast: a loaded machine passes too.
import { beforeAll, describe, expect, it } from 'vitest';
import { httpEnv } from '@backbone/config';
import { createTestAccount, request, sendRaw, sendSlowly, useServiceProcesses, useTestDatabase, useTestRedis, type ServiceProcess } from '@backbone/testkit';

const db = useTestDatabase();
const redis = useTestRedis();
const services = useServiceProcesses();

describe('partner API process', () => {
  let api: ServiceProcess;
  let url: string;
  let key: string;

  beforeAll(async () => {
    key = (await createTestAccount(db.pool)).key;
    api = services.spawn('apps/partner-api/src/server.ts', {
      DATABASE_URL: db.databaseUrl,
      DATABASE_SCHEMA: db.schema,
      DATABASE_POOL_SIZE: '2',
      REDIS_URL: redis.redisUrl,
      QUEUE_PREFIX: redis.prefix,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      HEADERS_TIMEOUT_MS: '1000',
      // Far above what the in-flight request of the SIGTERM test takes on any machine: it is answered, never a 408.
      REQUEST_TIMEOUT_MS: '120000',
      CONNECTIONS_CHECK_INTERVAL_MS: '100',
      // Under the 65 s a kept-alive connection stays open, so one that held the stop would show as the grace period's end.
      SHUTDOWN_TIMEOUT_MS: '30000',
    });
  });

  it('writes the listening line while it idles, before any request', async () => {
    // Logs are written in batches of 4 KB: without the periodic flush this line would wait for traffic or the exit.
    const listening = await api.waitForLine('"partner API listening"', (line) => line.msg === 'partner API listening');
    expect(api.child.exitCode).toBeNull();
    url = listening.line.url as string;
  });

  it('closes a connection whose headers stop coming after HEADERS_TIMEOUT_MS, with a 408 problem, and logs it', async () => {
    const res = await sendRaw(url, 'GET /api/v2/ota/partner/products HTTP/1.1\r\nHost: test\r\nAuthor', { timeoutMs: 60_000 });
    // Closed (after about 1 s) long before the default headers timeout (10 s) would have: the configured one applied.
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeLessThan(httpEnv.HEADERS_TIMEOUT_MS.default);
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ type: 'https://problems.activity-backbone.dev/request-timeout', status: 408 });
    await api.waitForLine('for the 408', (line) => line.reqId === res.body.requestId && (line.res as { statusCode: number }).statusCode === 408);
  });

  it('on SIGTERM stops without waiting out its grace period, answering a request in flight, with every line written', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `partner-process-${i}`);
    for (const id of ids) expect((await request(url, 'GET', '/healthz', { headers: { 'x-request-id': id } })).status).toBe(200);
    // A keep-alive request still running when the signal comes: it is answered, and its connection does not hold the stop.
    const slow = sendSlowly(url, 'POST', '/api/v2/ota/partner/booking', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': 'partner-process-slow' },
      parts: ['{"ActivityID":', '"not-an-activity"}'],
    });
    await slow.sentFirstPart;
    api.child.kill('SIGTERM');
    // The rest of the body comes only once the shutdown has begun.
    await api.waitForLine('"shutting down"', (line) => typeof line.msg === 'string' && line.msg.startsWith('shutting down'));
    expect((await slow.finish()).status).toBe(422);
    expect(await api.exited).toEqual({ code: 0, signal: null });
    slow.close();

    const lines = api.lines().map((l) => l.line);
    expect([...ids, 'partner-process-slow'].filter((id) => !lines.some((line) => line.reqId === id && line.msg === 'request completed'))).toEqual([]);
    expect(lines.map((line) => line.msg)).toContain('shutting down: no new connections, finishing in-flight requests');
    // The client keeps its connection open: had that held the stop, the grace period would have ended it.
    expect(lines.map((line) => line.msg)).not.toContain('grace period over, closing remaining connections');
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});
