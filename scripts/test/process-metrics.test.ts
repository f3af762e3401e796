// Each API as the process production runs (server.ts, configured by its environment) serves Prometheus text on its
// own METRICS_PORT: the exposition parses, carries the process metrics, and counts the requests the API answered;
// with METRICS_ENABLED=false there is no metrics server. (The workers' processes: apps/metering-worker/test/metrics.test.ts, apps/booking-worker/test/metrics.test.ts.)
import { describe, expect, it } from 'vitest';
import { scrapeMetrics } from '@backbone/metrics/scrape';
import { createTestAccount, request, useServiceProcesses, useTestDatabase, useTestRedis, type ServiceProcess } from '@backbone/testkit';

const db = useTestDatabase();
const redis = useTestRedis();
const services = useServiceProcesses();

function spawnApi(entry: string, env: Record<string, string> = {}): ServiceProcess {
  return services.spawn(entry, {
    DATABASE_URL: db.databaseUrl,
    DATABASE_SCHEMA: db.schema,
    DATABASE_POOL_SIZE: '2',
    REDIS_URL: redis.redisUrl,
    QUEUE_PREFIX: redis.prefix,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...env,
  });
}

async function urlsOf(api: ServiceProcess, listening: string): Promise<{ api: string; metrics: string }> {
  const apiLine = await api.waitForLine(`"${listening}"`, (line) => line.msg === listening);
  const metricsLine = await api.waitForLine('"metrics listening"', (line) => line.msg === 'metrics listening');
  return { api: apiLine.line.url as string, metrics: `${metricsLine.line.url as string}/metrics` };
}

const APIS = [
  {
    entry: 'apps/partner-api/src/server.ts',
    listening: 'partner API listening',
    path: '/api/v2/ota/partner/products',
    operation: 'listProducts',
    scopes: ['ota'],
  },
  {
    entry: 'apps/usage-api/src/server.ts',
    listening: 'usage API listening',
    path: '/api/v2/usage/meters',
    operation: 'getUsageSummary',
    scopes: ['usage:read'],
  },
  {
    entry: 'apps/operator-api/src/server.ts',
    listening: 'operator API listening',
    path: '/api/v2/operator/bookings',
    operation: 'listOperatorBookings',
    scopes: ['admin'],
  },
] as const;

describe('the metrics of each API process', () => {
  for (const app of APIS) {
    it(`${app.entry}: its METRICS_PORT serves an exposition that parses and counts its requests`, async () => {
      const account = await createTestAccount(db.pool);
      const key = await account.keyWith([...app.scopes]);
      const api = spawnApi(app.entry);
      const urls = await urlsOf(api, app.listening);
      const before = await scrapeMetrics(urls.metrics);
      expect(before.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(before.family('backbone_process_resident_memory_bytes')?.type).toBe('GAUGE');
      const answered = (await request(urls.api, 'GET', app.path, { key })).status;
      expect((await request(urls.api, 'GET', '/nothing')).status).toBe(404);
      const after = await scrapeMetrics(urls.metrics);
      const delta = (labels: Record<string, string>) =>
        after.value('backbone_http_requests_total', labels) - before.value('backbone_http_requests_total', labels);
      expect(delta({ operation: app.operation, method: 'GET', status: String(answered) })).toBe(1);
      expect(delta({ operation: 'unmatched', method: 'GET', status: '404' })).toBe(1);
      // The API's own port does not serve the metrics.
      expect((await request(urls.api, 'GET', '/metrics')).status).toBe(404);
      api.child.kill('SIGTERM');
      expect(await api.exited).toEqual({ code: 0, signal: null });
    });
  }

  it('METRICS_ENABLED=false: no metrics server, and the API serves as before', async () => {
    const api = spawnApi('apps/partner-api/src/server.ts', { METRICS_ENABLED: 'false' });
    const listening = await api.waitForLine('"partner API listening"', (line) => line.msg === 'partner API listening');
    expect((await request(listening.line.url as string, 'GET', '/healthz')).status).toBe(200);
    expect(api.lines().some(({ line }) => line.msg === 'metrics listening')).toBe(false);
    api.child.kill('SIGTERM');
    expect(await api.exited).toEqual({ code: 0, signal: null });
  });
});
