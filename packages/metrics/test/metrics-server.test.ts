// The metrics server: GET /metrics is Prometheus text exposition that parses, with the process metrics and every
// metric this package defines; nothing else is served; a scrape-time source that fails leaves its gauges out and is
// counted, without failing the scrape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrapeMetrics } from '../src/scrape.js';
import { collectOutboxMetrics, collectQueueMetrics, countBookings, registry, startMetricsServer, type MetricsServer, type QueueProbe } from '../src/index.js';

let server: MetricsServer;
let metricsUrl: string;

beforeAll(async () => {
  server = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
  metricsUrl = `${server.url}/metrics`;
});

afterAll(() => server.close());

describe('metrics server', () => {
  it('answers GET /metrics with the text exposition, which parses, and the process metrics under backbone_', async () => {
    const scrape = await scrapeMetrics(metricsUrl);
    expect(scrape.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    const names = scrape.families.map((family) => family.name);
    expect(names).toEqual(
      expect.arrayContaining(['backbone_process_cpu_seconds_total', 'backbone_nodejs_eventloop_lag_seconds', 'backbone_process_resident_memory_bytes']),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'backbone_http_requests_total',
        'backbone_http_request_duration_seconds',
        'backbone_bookings_total',
        'backbone_usage_entries_written_total',
        'backbone_jobs_processed_total',
        'backbone_webhook_deliveries_total',
        'backbone_rate_limited_requests_total',
        'backbone_rate_limiter_failed_open_total',
      ]),
    );
    expect(scrape.family('backbone_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
  });

  it('shows a counter moving between two scrapes', async () => {
    const before = (await scrapeMetrics(metricsUrl)).value('backbone_bookings_total', { channel: 'pos', outcome: 'cancelled' });
    countBookings('pos', 'cancelled', 2);
    expect((await scrapeMetrics(metricsUrl)).value('backbone_bookings_total', { channel: 'pos', outcome: 'cancelled' })).toBe(before + 2);
  });

  it('serves nothing but /metrics: other paths 404, other methods 405, HEAD without a body', async () => {
    for (const path of ['/', '/metricsx', '/healthz', '/api/v2/ota/partner/products']) expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    const post = await fetch(metricsUrl, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(metricsUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    // A query string does not change the answer.
    expect((await fetch(`${metricsUrl}?name[]=x`)).status).toBe(200);
  });

  it('keeps answering when a scrape-time source fails: its gauges are left out and the failure is counted', async () => {
    const brokenQueue: QueueProbe = {
      name: 'broken',
      getJobCounts: () => Promise.reject(new Error('Redis is down')),
      getJobs: () => Promise.reject(new Error('Redis is down')),
    };
    const failures: string[] = [];
    const remove = collectQueueMetrics([brokenQueue], (collector) => failures.push(collector));
    try {
      const before = (await scrapeMetrics(metricsUrl)).value('backbone_metrics_collector_errors_total', { collector: 'queues' });
      const scrape = await scrapeMetrics(metricsUrl);
      expect(scrape.value('backbone_metrics_collector_errors_total', { collector: 'queues' })).toBe(before + 1);
      expect(scrape.samples('backbone_queue_jobs')).toEqual([]);
      expect(failures.length).toBeGreaterThanOrEqual(2);
    } finally {
      remove();
    }
    expect((await scrapeMetrics(metricsUrl)).family('backbone_queue_jobs')).toBeUndefined();
  });

  it('reports an unlabelled gauge whose source fails as NaN (unknown), not 0', async () => {
    const remove = collectOutboxMetrics(() => Promise.reject(new Error('PostgreSQL is down')));
    try {
      const scrape = await scrapeMetrics(metricsUrl);
      expect(scrape.value('backbone_outbox_oldest_event_age_seconds')).toBeNaN();
      expect(scrape.samples('backbone_outbox_backlog')).toEqual([]);
    } finally {
      remove();
    }
  });

  it('reports the gauges of every registered source, read once per scrape', async () => {
    let reads = 0;
    const remove = collectOutboxMetrics(async () => {
      reads++;
      return { byType: { 'booking.created': 3, 'booking.cancelled': 1 }, oldestAgeSeconds: 42 };
    });
    try {
      const scrape = await scrapeMetrics(metricsUrl);
      expect(scrape.value('backbone_outbox_backlog', { type: 'booking.created' })).toBe(3);
      expect(scrape.value('backbone_outbox_backlog')).toBe(4);
      expect(scrape.value('backbone_outbox_oldest_event_age_seconds')).toBe(42);
      // Two gauges, one read.
      expect(reads).toBe(1);
    } finally {
      remove();
    }
  });
});
