// The partner API's metrics move with its traffic: requests per operation and status (an unknown path under the one
// label `unmatched`, whatever the path), their latency histogram, and bookings by outcome (created, held, full,
// confirmed, cancelled; a replayed answer is not counted twice). Scraped over HTTP from a metrics server on the
// process's registry, as Prometheus does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry, startMetricsServer, type MetricsServer } from '@backbone/metrics';
import { scrapeMetrics, type Scrape } from '@backbone/metrics/scrape';
import { createTestTimeslot, futureDate, request } from '@backbone/testkit';
import { bookingBody, createOperator, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const BOOKING = '/api/v2/ota/partner/booking';
const day = futureDate(12);

let op: Operator;
let metrics: MetricsServer;
const scrape = () => scrapeMetrics(`${metrics.url}/metrics`);

beforeAll(async () => {
  op = await createOperator(db.pool, { activity: { maxParticipants: 6 } });
  for (const time of ['09:00', '10:00']) await createTestTimeslot(db.pool, op.activity, { date: day, time, capacity: 3 });
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
});

afterAll(() => metrics.close());

const delta = (before: Scrape, after: Scrape, name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);

describe('HTTP request metrics', () => {
  it('count each answer by operationId, method and status code, and time it', async () => {
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota })).status).toBe(200);
    expect((await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: 'wrong' })).status).toBe(401);
    const after = await scrape();
    expect(delta(before, after, 'backbone_http_requests_total', { operation: 'listProducts', method: 'GET', status: '200' })).toBe(3);
    expect(delta(before, after, 'backbone_http_requests_total', { operation: 'listProducts', method: 'GET', status: '401' })).toBe(1);
    expect(delta(before, after, 'backbone_http_request_duration_seconds_count', { operation: 'listProducts', status: '200' })).toBe(3);
    expect(after.value('backbone_http_request_duration_seconds_sum', { operation: 'listProducts', status: '200' })).toBeGreaterThan(
      before.value('backbone_http_request_duration_seconds_sum', { operation: 'listProducts', status: '200' }),
    );
  });

  it('labels every path no operation took `unmatched`, so random paths add no series', async () => {
    const before = await scrape();
    const paths = ['/nothing', '/api/v2/ota/partner/nothing', `/api/v2/ota/partner/${'x'.repeat(40)}`, '/metrics'];
    for (const path of paths) expect((await request(server.url, 'GET', path, { key: op.ota })).status).toBe(404);
    expect((await request(server.url, 'GET', '/healthz')).status).toBe(200);
    const after = await scrape();
    expect(delta(before, after, 'backbone_http_requests_total', { operation: 'unmatched', method: 'GET', status: '404' })).toBe(paths.length);
    expect(delta(before, after, 'backbone_http_requests_total', { operation: 'healthz', method: 'GET', status: '200' })).toBe(1);
    const labelValues = after.samples('backbone_http_requests_total').flatMap((sample) => Object.values(sample.labels));
    for (const path of paths) expect(labelValues).not.toContain(path);
    expect(after.text).not.toContain(op.ota);
    expect(after.text).not.toContain(op.account.id);
  });
});

describe('bookings by outcome', () => {
  const outcome = (scrapeResult: Scrape, name: string) => scrapeResult.value('backbone_bookings_total', { channel: 'ota', outcome: name });

  it('counts created, held, full, confirmed and cancelled once each, not again for a replayed answer', async () => {
    const before = await scrape();
    const created = await request(server.url, 'POST', BOOKING, {
      key: op.ota,
      body: bookingBody(op.activity, { date: day, time: '09:00' }, { Participants: 2 }),
      headers: { 'idempotency-key': 'metrics-1' },
    });
    expect(created.status).toBe(201);
    const replayed = await request(server.url, 'POST', BOOKING, {
      key: op.ota,
      body: bookingBody(op.activity, { date: day, time: '09:00' }, { Participants: 2 }),
      headers: { 'idempotency-key': 'metrics-1' },
    });
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    const full = await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(op.activity, { date: day, time: '09:00' }, { Participants: 2 }) });
    expect(full.status).toBe(409);
    const held = await request(server.url, 'POST', BOOKING, {
      key: op.ota,
      body: bookingBody(op.activity, { date: day, time: '10:00' }, { Hold: { Minutes: 10 } }),
    });
    expect(held.status).toBe(201);
    const reference = (held.body as { Reference: string }).Reference;
    expect((await request(server.url, 'POST', `${BOOKING}/${reference}/confirm`, { key: op.ota, body: {} })).status).toBe(200);
    // Confirming again answers the same and changes nothing: not counted.
    expect((await request(server.url, 'POST', `${BOOKING}/${reference}/confirm`, { key: op.ota, body: {} })).status).toBe(200);
    expect(
      (await request(server.url, 'POST', `${BOOKING}/${(created.body as { Reference: string }).Reference}/cancel`, { key: op.ota, body: {} })).status,
    ).toBe(200);
    const after = await scrape();
    expect(outcome(after, 'created') - outcome(before, 'created')).toBe(1);
    expect(outcome(after, 'held') - outcome(before, 'held')).toBe(1);
    expect(outcome(after, 'full') - outcome(before, 'full')).toBe(1);
    expect(outcome(after, 'confirmed') - outcome(before, 'confirmed')).toBe(1);
    expect(outcome(after, 'cancelled') - outcome(before, 'cancelled')).toBe(1);
    expect(delta(before, after, 'backbone_http_requests_total', { operation: 'createBooking', method: 'POST', status: '409' })).toBe(1);
  });
});
