// Authentication, scopes, the tenant wall, the order of checks, request ids, and the problem documents the shared
// plumbing sends for failures outside the operations (unknown route, unreadable or oversized bodies).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '@backbone/db';
import { createTestQuestion, createTestTimeslot, futureDate, request } from '@backbone/testkit';
import { bookingBody, createOperator, databaseFingerprint, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const day = futureDate(7);
const BOOKING = '/api/v2/ota/partner/booking';
const WEBHOOKS = '/api/v2/ota/partner/webhooks';

let op: Operator;
let intruder: Operator;
let noOta: string;

interface Route {
  name: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: () => string;
  body?: () => unknown;
}

/** Every partner route, called the way a well-behaved partner would call it. */
const routes: Route[] = [
  { name: 'products', method: 'GET', path: () => '/api/v2/ota/partner/products' },
  { name: 'resolve-product', method: 'GET', path: () => `/api/v2/ota/partner/resolve-product?ID=${op.activity.id}` },
  { name: 'dates', method: 'GET', path: () => `/api/v2/ota/partner/availability/${op.activity.activityId}/dates?StartDate=${day}&EndDate=${day}` },
  { name: 'timeslots', method: 'GET', path: () => `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${day}` },
  { name: 'partner questions', method: 'GET', path: () => `/api/v2/ota/partner/questions/${op.activity.activityId}` },
  { name: 'core questions', method: 'GET', path: () => `/api/v2/ota/core/questions/${op.activity.activityId}` },
  { name: 'booking', method: 'POST', path: () => BOOKING, body: () => bookingBody(op.activity, { date: day, time: '09:00' }) },
  { name: 'sync', method: 'GET', path: () => '/api/v2/ota/partner/bookings?Limit=10' },
  { name: 'webhooks', method: 'GET', path: () => WEBHOOKS },
  { name: 'register webhook', method: 'POST', path: () => WEBHOOKS, body: () => ({ Url: 'https://93.184.216.34/hook' }) },
];

/**
 * The lifecycle routes on one of op's bookings, and the webhook routes on one of op's endpoints: only op's partner
 * may reach them (see lifecycle.test.ts and webhooks.test.ts).
 */
const bookingRoutes: Route[] = [
  { name: 'look up', method: 'GET', path: () => `${BOOKING}/${reference}` },
  { name: 'confirm', method: 'POST', path: () => `${BOOKING}/${reference}/confirm`, body: () => ({}) },
  { name: 'cancel', method: 'POST', path: () => `${BOOKING}/${reference}/cancel`, body: () => ({ Reason: 'x' }) },
  { name: 'webhook deliveries', method: 'GET', path: () => `${WEBHOOKS}/${hook.endpoint}/deliveries` },
  { name: 'replay a webhook delivery', method: 'POST', path: () => `${WEBHOOKS}/${hook.endpoint}/deliveries/${hook.delivery}/replay` },
  { name: 'replay webhook deliveries', method: 'POST', path: () => `${WEBHOOKS}/${hook.endpoint}/replay`, body: () => ({ Since: '2000-01-01T00:00:00Z' }) },
  { name: 'delete webhook', method: 'DELETE', path: () => `${WEBHOOKS}/${hook.endpoint}` },
];
let reference = '';
const hook = { endpoint: '', delivery: '' };

const call = (route: Route, headers: Record<string, string> = {}) => request(server.url, route.method, route.path(), { body: route.body?.(), headers });

beforeAll(async () => {
  op = await createOperator(db.pool);
  intruder = await createOperator(db.pool);
  noOta = await op.keyWith(['usage:write', 'usage:read', 'platform:events', 'admin']);
  await createTestTimeslot(db.pool, op.activity, { date: day, time: '09:00', capacity: 50 });
  await createTestQuestion(db.pool, op.activity, { question: 'Private question' });
  await createTestTimeslot(db.pool, intruder.activity, { date: day, time: '09:00', capacity: 50 });
  const held = await request(server.url, 'POST', BOOKING, {
    key: op.ota,
    body: bookingBody(op.activity, { date: day, time: '09:00' }, { Hold: { Minutes: 60 } }),
  });
  reference = held.body.Reference;
  hook.endpoint = (await request(server.url, 'POST', WEBHOOKS, { key: op.ota, body: { Url: 'https://93.184.216.34/hook' } })).body.ID;
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload, status, failed_at)
     VALUES ($1, $2, gen_random_uuid(), 'booking.created', '{}', 'failed', now()) RETURNING id`,
    [hook.endpoint, op.account.id],
  );
  hook.delivery = rows[0]!.id;
});

describe.each(bookingRoutes)('$name', (route) => {
  it.each([
    ['no key', () => ({})],
    ['an unknown key', () => ({ authorization: 'Bearer bk_this-key-does-not-exist' })],
    ['a key without the ota scope', () => ({ authorization: `Bearer ${noOta}` })],
    ["another account's ota key", () => ({ authorization: `Bearer ${intruder.ota}` })],
  ])('refuses %s (401, 403, 404) and changes nothing', async (label, headers) => {
    const before = await databaseFingerprint(db.pool);
    const res = await call(route, headers());
    expect(res.status).toBe(label === 'a key without the ota scope' ? 403 : label === "another account's ota key" ? 404 : 401);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});

describe.each(routes)('$name', (route) => {
  it.each([
    ['no Authorization header', {}],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without a key', { authorization: 'Bearer ' }],
    ['Bearer with two words', { authorization: 'Bearer abc def' }],
    ['an unknown key', { authorization: 'Bearer bk_this-key-does-not-exist' }],
  ])('answers 401 with a Bearer challenge for %s', async (_label, headers) => {
    const before = await databaseFingerprint(db.pool);
    const res = await call(route, headers);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unauthorized`, title: 'Unauthorized', status: 401, instance: route.path().split('?')[0] });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('answers 401 for a revoked key, from the next request on', async () => {
    const key = await createApiKey(db.pool, op.account.id, { name: 'soon revoked', scopes: ['ota'] });
    const ok = await call(route, { authorization: `Bearer ${key.secret}` });
    expect(ok.status).toBeLessThan(300);
    await revokeApiKey(db.pool, op.account.id, key.id);
    const res = await call(route, { authorization: `Bearer ${key.secret}` });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers 403 to a key without the ota scope, and changes nothing', async () => {
    const before = await databaseFingerprint(db.pool);
    const res = await call(route, { authorization: `Bearer ${noOta}` });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/forbidden`, title: 'Forbidden', status: 403 });
    expect(res.body.detail).toContain('ota');
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});

describe('the tenant wall', () => {
  const asIntruder = { authorization: '' };
  beforeAll(() => {
    asIntruder.authorization = `Bearer ${intruder.ota}`;
  });

  it.each(routes.filter((r) => r.method === 'GET' && !['products', 'sync', 'webhooks'].includes(r.name)))(
    "answers 404 on $name for another account's activity, exactly as for one that does not exist",
    async (route) => {
      const before = await databaseFingerprint(db.pool);
      const foreign = await call(route, asIntruder);
      expect(foreign.status).toBe(404);
      const unknownPath = route.path().replace(op.activity.activityId, randomUUID()).replace(`ID=${op.activity.id}`, 'ID=999999999');
      const unknown = await request(server.url, 'GET', unknownPath, { key: intruder.ota });
      expect(unknown.status).toBe(404);
      // Same words; only the ID echoed back may differ.
      expect(foreign.body.detail.replace(/\d+/g, 'N')).toBe(unknown.body.detail.replace(/\d+/g, 'N'));
      expect(foreign.body.type).toBe(unknown.body.type);
      expect(await databaseFingerprint(db.pool)).toEqual(before);
    },
  );

  it("refuses to book another account's activity (422, as for an unknown one) and changes nothing", async () => {
    const before = await databaseFingerprint(db.pool);
    const foreign = await request(server.url, 'POST', BOOKING, { key: intruder.ota, body: bookingBody(op.activity, { date: day, time: '09:00' }) });
    const unknown = await request(server.url, 'POST', BOOKING, {
      key: intruder.ota,
      body: bookingBody({ ...op.activity, activityId: randomUUID() }, { date: day, time: '09:00' }),
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail).toBe(unknown.body.detail);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it("never lists another account's products", async () => {
    const res = await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: intruder.ota });
    expect(res.body.map((p: { ID: number }) => p.ID)).toEqual([intruder.activity.id]);
  });
});

describe('order of checks: 401, 403, 400, 422, 404, 409', () => {
  const dates = (id: string, query: string) => `/api/v2/ota/partner/availability/${id}/dates${query}`;

  it('checks the key before anything else', async () => {
    expect((await request(server.url, 'GET', dates('bad-id', ''))).status).toBe(401);
    expect((await request(server.url, 'POST', BOOKING, { rawBody: '{nonsense', headers: { 'content-type': 'application/json' } })).status).toBe(401);
  });

  it('checks the scope before the path', async () => {
    expect((await request(server.url, 'GET', dates('bad-id', ''), { key: noOta })).status).toBe(403);
    expect((await request(server.url, 'POST', BOOKING, { key: noOta, rawBody: '{nonsense', headers: { 'content-type': 'application/json' } })).status).toBe(
      403,
    );
  });

  it('checks the path before the query', async () => {
    expect((await request(server.url, 'GET', dates('bad-id', ''), { key: op.ota })).status).toBe(400);
  });

  it('checks the query before existence', async () => {
    expect((await request(server.url, 'GET', dates(randomUUID(), '?StartDate=2026-02-30'), { key: op.ota })).status).toBe(422);
  });

  it('checks existence once the request is well-formed', async () => {
    expect((await request(server.url, 'GET', dates(randomUUID(), `?StartDate=${day}&EndDate=${day}`), { key: op.ota })).status).toBe(404);
  });

  it('checks the body before the state of the timeslot', async () => {
    const activityFull = await createOperator(db.pool);
    await createTestTimeslot(db.pool, activityFull.activity, { date: day, time: '09:00', capacity: 1, booked: 1 });
    const body = bookingBody(activityFull.activity, { date: day, time: '09:00' });
    const invalid = await request(server.url, 'POST', BOOKING, { key: activityFull.ota, body: { ...body, Customer: { ...body.Customer, Email: 'nope' } } });
    expect(invalid.status).toBe(422);
    expect((await request(server.url, 'POST', BOOKING, { key: activityFull.ota, body })).status).toBe(409);
  });
});

describe('the Authorization scheme', () => {
  it.each([['bearer %s'], ['BEARER %s'], ['bEaReR %s'], ['Bearer   %s']])('is case-insensitive and takes several spaces (RFC 9110): %s', async (form) => {
    const res = await request(server.url, 'GET', '/api/v2/ota/partner/products', { headers: { authorization: form.replace('%s', op.ota) } });
    expect(res.status).toBe(200);
  });

  it.each([['bearer%s'], ['Bearer\t%s'], ['Bearer: %s'], ['Bearers %s']])('is still a 401 when it is not Bearer and a space: %j', async (form) => {
    const res = await request(server.url, 'GET', '/api/v2/ota/partner/products', { headers: { authorization: form.replace('%s', op.ota) } });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unauthorized`, status: 401 });
  });
});

describe('request ids', () => {
  it('echoes a given X-Request-Id on success and on failure, and puts it in problems', async () => {
    const ok = await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota, headers: { 'x-request-id': 'partner-trace-1' } });
    expect(ok.headers.get('x-request-id')).toBe('partner-trace-1');
    const unauthorized = await request(server.url, 'GET', '/api/v2/ota/partner/products', { headers: { 'x-request-id': 'partner-trace-2' } });
    expect(unauthorized.headers.get('x-request-id')).toBe('partner-trace-2');
    expect(unauthorized.body.requestId).toBe('partner-trace-2');
    const invalid = await request(server.url, 'POST', BOOKING, { key: op.ota, body: {}, headers: { 'x-request-id': 'partner-trace-3' } });
    expect(invalid.headers.get('x-request-id')).toBe('partner-trace-3');
    expect(invalid.body.requestId).toBe('partner-trace-3');
  });

  it('generates one when none (or an implausible one) is given', async () => {
    const a = await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota });
    const b = await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota, headers: { 'x-request-id': 'bad id with spaces' } });
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('problems from the plumbing', () => {
  it('answers an unknown route with a 404 problem', async () => {
    const res = await request(server.url, 'GET', '/api/v2/ota/partner/nothing-here', { key: op.ota });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, status: 404, instance: '/api/v2/ota/partner/nothing-here' });
  });

  it('matches operation paths as Express would: case-sensitive, an optional trailing slash, decoded path segments', async () => {
    const timeslots = `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots`;
    const withSlash = await request(server.url, 'GET', `${timeslots}/?Date=${day}`, { key: op.ota });
    expect(withSlash.status).toBe(200);
    expect(withSlash.text).toBe((await request(server.url, 'GET', `${timeslots}?Date=${day}`, { key: op.ota })).text);

    const upper = await request(server.url, 'GET', '/api/v2/ota/partner/PRODUCTS', { key: op.ota });
    expect(upper.status).toBe(404);
    expect(upper.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, instance: '/api/v2/ota/partner/PRODUCTS' });

    // A percent-encoded ActivityID is decoded before validation: the same activity, the same answer.
    const encoded = op.activity.activityId.replace(/-/g, '%2D');
    const decoded = await request(server.url, 'GET', `/api/v2/ota/partner/questions/${encoded}`, { key: op.ota });
    expect(decoded.status).toBe(200);
    expect(decoded.text).toBe((await request(server.url, 'GET', `/api/v2/ota/partner/questions/${op.activity.activityId}`, { key: op.ota })).text);

    const empty = await request(server.url, 'GET', '/api/v2/ota/partner/questions/', { key: op.ota });
    expect(empty.status).toBe(404);
    const extra = await request(server.url, 'GET', `/api/v2/ota/partner/questions/${op.activity.activityId}/more`, { key: op.ota });
    expect(extra.status).toBe(404);
  });

  it('answers another method on an operation path with a 404 problem, and OPTIONS with the methods it takes', async () => {
    const res = await request(server.url, 'DELETE', BOOKING, { key: op.ota });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, status: 404, instance: BOOKING });

    const options = await request(server.url, 'OPTIONS', '/api/v2/ota/partner/products');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
    expect((await request(server.url, 'OPTIONS', BOOKING)).headers.get('allow')).toBe('POST');
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const res = await request(server.url, 'POST', BOOKING, { key: op.ota, rawBody: '{"ActivityID": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/malformed-json`, status: 400, instance: BOOKING });
  });

  it('answers a body that is not JSON with a 415 problem', async () => {
    const res = await request(server.url, 'POST', BOOKING, {
      key: op.ota,
      rawBody: 'ActivityID=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unsupported-media-type`, status: 415 });
  });

  it('answers an oversized body with a 413 problem', async () => {
    const body = { ...bookingBody(op.activity, { date: day, time: '09:00' }), PaymentReference: 'x'.repeat(100_000) };
    const res = await request(server.url, 'POST', BOOKING, { key: op.ota, body });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/payload-too-large`, status: 413 });
  });
});
