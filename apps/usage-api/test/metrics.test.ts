// The usage API's metrics move with its traffic: usage entries written by source (a single POST, a batch's created
// entries; a retried entry or a replayed batch is not counted again), and its requests per operation and status.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry, startMetricsServer, type MetricsServer } from '@backbone/metrics';
import { scrapeMetrics } from '@backbone/metrics/scrape';
import { request } from '@backbone/testkit';
import { countEntries, createUsageClient, useUsageApi, utc, type UsageClient } from './support.js';

const { db, server } = useUsageApi();
const AT = utc(2026, 4, 1, 12);
const written = (scrape: Awaited<ReturnType<typeof scrapeMetrics>>, source: string) => scrape.value('backbone_usage_entries_written_total', { source });

let client: UsageClient;
let metrics: MetricsServer;
const scrape = () => scrapeMetrics(`${metrics.url}/metrics`);

beforeAll(async () => {
  client = await createUsageClient(db.pool);
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
});

afterAll(() => metrics.close());

describe('usage entries written', () => {
  it('counts each stored single entry once, not its retry with the same Idempotency-Key', async () => {
    const before = await scrape();
    for (const key of ['single-1', 'single-2', 'single-1']) {
      const res = await request(server.url, 'POST', '/api/v2/usage/meters', {
        key: client.write,
        body: { Meter: 'sms', Usage: 1, OccurredAt: AT },
        headers: { 'idempotency-key': key },
      });
      expect(res.status).toBeLessThan(300);
    }
    const after = await scrape();
    expect(written(after, 'api_single') - written(before, 'api_single')).toBe(2);
    expect(await countEntries(db.pool, client.account.id)).toBe(2);
    // Three answers (the retry gets the stored entry again, 201 and Idempotent-Replayed) for two entries written.
    const answered = (s: typeof before) => s.value('backbone_http_requests_total', { operation: 'recordUsageEntry', method: 'POST', status: '201' });
    expect(answered(after) - answered(before)).toBe(3);
  });

  it("counts a batch's created entries, not its rejected ones, and not again when the batch is replayed", async () => {
    const before = await scrape();
    const body = {
      Entries: [
        { Meter: 'a', Usage: 1, OccurredAt: AT },
        { Meter: 'b', Usage: 2, OccurredAt: AT },
        { Meter: 'bad', Usage: '1' },
      ],
    };
    const first = await request(server.url, 'POST', '/api/v2/usage/meters/batch', { key: client.write, body, headers: { 'idempotency-key': 'batch-1' } });
    expect(first.status).toBe(207);
    const replay = await request(server.url, 'POST', '/api/v2/usage/meters/batch', { key: client.write, body, headers: { 'idempotency-key': 'batch-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    const after = await scrape();
    expect(written(after, 'api_batch') - written(before, 'api_batch')).toBe(2);
    expect(written(after, 'api_single') - written(before, 'api_single')).toBe(0);
  });
});
