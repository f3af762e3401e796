// The local gateway (npm start) in front of the real partner app: what it answers itself is a problem document too,
// whether its parser refuses the request, the client is too slow or sends too little, or an upstream does not answer.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpEnv } from '@backbone/config';
import { createKeyVerifier, createLogger } from '@backbone/http';
import { createPartnerApp } from '@backbone/partner-api';
import { testFileDeps, WITHOUT_WEBHOOKS } from '@backbone/test-apps/partner-api';
import { registry } from '@backbone/metrics';
import { readScrape } from '@backbone/metrics/scrape';
import { createTestAccount, freePort, request, sendRaw, useTestDatabase, useTestServer } from '@backbone/testkit';
import { createGateway, routeFor } from '../gateway.js';

const PROBLEM_BASE = 'https://problems.example.test';
// A request timeout far from the headers timeout, so that which of them closed a connection needs no tight clock.
const timeouts = { headersTimeoutMs: 1000, requestTimeoutMs: 60_000, connectionsCheckIntervalMs: 100 };
const BOOKING = '/api/v2/ota/partner/booking';

const db = useTestDatabase();
const partner = useTestServer(() =>
  createPartnerApp({
    pool: db.pool,
    logger: createLogger({ level: 'silent', name: 'partner-api-test' }),
    problemBase: PROBLEM_BASE,
    bodyLimit: '64kb',
    keyVerifier: createKeyVerifier(db.pool, 0),
    ...WITHOUT_WEBHOOKS,
    ...testFileDeps(),
  }),
);
let gateway: ReturnType<typeof createGateway>;
let url: string;
let key: string;

beforeAll(async () => {
  key = (await createTestAccount(db.pool)).key;
  // The usage and operator APIs are ports nobody listens on.
  gateway = createGateway(
    { partnerApi: partner.url, usageApi: `http://127.0.0.1:${await freePort()}`, operatorApi: `http://127.0.0.1:${await freePort()}` },
    { problemBase: `${PROBLEM_BASE}/`, timeouts },
  );
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      gateway.close(() => resolve());
      gateway.closeAllConnections();
    }),
);

async function bookings(): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM bookings');
  return rows[0]!.n;
}

describe('gateway', () => {
  it('routes the operator API and the console to the operator API', () => {
    const targets = { partnerApi: 'p', usageApi: 'u', operatorApi: 'o' };
    expect(
      ['/api/v2/operator/bookings', '/console', '/console/', '/console/bookings?Channel=ota', '/console?x=1'].map((path) => routeFor(path, targets)),
    ).toEqual(['o', 'o', 'o', 'o', 'o']);
    expect(['/consoles', '/api/v2/ota/partner/products', '/api/v2/usage/meters', '/docs'].map((path) => routeFor(path, targets))).toEqual(['p', 'p', 'u', 'p']);
  });

  it("passes the APIs' answers through, problems included", async () => {
    expect((await request(url, 'GET', '/api/v2/ota/partner/products', { key })).status).toBe(200);
    const unknown = await request(url, 'GET', '/api/v2/ota/partner/nothing', { key });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, instance: '/api/v2/ota/partner/nothing' });
  });

  it('answers an upstream that does not answer with a 502 problem', async () => {
    const res = await request(url, 'GET', '/api/v2/usage/meters?from=2026-01-01&to=2026-01-02', { key });
    expect(res.status).toBe(502);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({
      type: `${PROBLEM_BASE}/bad-gateway`,
      title: 'Bad Gateway',
      status: 502,
      detail: expect.any(String),
      instance: '/api/v2/usage/meters',
    });
    expect(res.headers.get('x-request-id')).toBe(res.body.requestId);
  });

  it.each([
    ['headers', { 'x-padding': 'p'.repeat(20_000) }, '/api/v2/ota/partner/products'],
    ['a request line', {}, `/api/v2/ota/partner/products?name=${'n'.repeat(20_000)}`],
  ])('answers %s over the 16 KB limit with a 431 problem', async (_label, headers, path) => {
    const res = await request(url, 'GET', path, { key, headers });
    expect(res.status).toBe(431);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({
      type: `${PROBLEM_BASE}/headers-too-large`,
      title: 'Request Header Fields Too Large',
      status: 431,
      instance: '/api/v2/ota/partner/products',
    });
  });

  it('answers a body shorter than its Content-Length (the client then ends its side) with a 400 problem, and books nothing', async () => {
    const body = '{"ActivityID":"d3e0d3e0-0000-4000-8000-00000000a002"}';
    const res = await sendRaw(
      url,
      `POST ${BOOKING} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n${body}`,
      {
        end: true,
      },
    );
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.body).toMatchObject({
      type: `${PROBLEM_BASE}/invalid-request`,
      title: 'Bad Request',
      status: 400,
      detail: expect.any(String),
      instance: BOOKING,
    });
    expect(await bookings()).toBe(0);
  });

  it('closes a connection whose headers stop coming within its headers timeout, with a 408 problem', async () => {
    const res = await sendRaw(url, 'GET /api/v2/ota/partner/products HTTP/1.1\r\nHost: te', { timeoutMs: 120_000 });
    // Closed (after about 1 s) long before the default headers timeout (10 s) or the request timeout (60 s) would
    // have: the headers timeout it was given applied.
    expect(res.closedAfterMs).not.toBeNull();
    expect(res.closedAfterMs).toBeLessThan(httpEnv.HEADERS_TIMEOUT_MS.default);
    expect(res.status).toBe(408);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/request-timeout`, status: 408 });
  });

  it('does not serve /metrics in any spelling: a 404 problem of its own, the upstream never asked', async () => {
    // The partner app runs in this process: its request counter shows what reached it.
    const reachedPartner = async () => readScrape(await registry.metrics(), null).value('backbone_http_requests_total', { operation: 'unmatched' });
    const before = await reachedPartner();
    for (const path of ['/metrics', '/metrics/', '/METRICS', '/metrics?format=text']) {
      const res = await request(url, 'GET', path, { key });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, status: 404, instance: '/metrics' });
    }
    expect(await reachedPartner()).toBe(before);
    // A neighbouring path is the partner API's to answer.
    expect((await request(url, 'GET', '/metricsx', { key })).status).toBe(404);
    expect(await reachedPartner()).toBe(before + 1);
  });
});
