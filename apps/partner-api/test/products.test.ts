// GET products and GET resolve-product: shape, filter, order, caching validators, and every status of the contract.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, request } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import { createOperator, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const PRODUCTS = '/api/v2/ota/partner/products';
const RESOLVE = '/api/v2/ota/partner/resolve-product';

let op: Operator;
let other: Operator;
let alphaClimb: Activity;
let alphaClimbTwin: Activity;
let betaTour: Activity;
let hidden: Activity;
let retired: Activity;

beforeAll(async () => {
  op = await createOperator(db.pool, {
    activity: {
      name: 'Zeppelin Ride',
      timeZone: 'Europe/Lisbon',
      priceMinor: 12900,
      currency: 'EUR',
      maxParticipants: 4,
      durationMinutes: 45,
      description: 'Up and away.',
    },
  });
  other = await createOperator(db.pool, { activity: { name: 'Alpha Climb elsewhere' } });
  betaTour = await createTestActivity(db.pool, op.account.id, { name: 'beta Tour' });
  alphaClimb = await createTestActivity(db.pool, op.account.id, { name: 'Alpha Climb' });
  // Same name ignoring case, created later: a higher ID.
  alphaClimbTwin = await createTestActivity(db.pool, op.account.id, { name: 'alpha climb' });
  hidden = await createTestActivity(db.pool, op.account.id, { name: 'Alpha Hidden', inShopfront: false });
  retired = await createTestActivity(db.pool, op.account.id, { name: 'Alpha Retired', active: false });
});

const names = (body: Array<{ Name: string }>) => body.map((p) => p.Name);

describe('GET products', () => {
  it('returns a JSON array of the full product shape', async () => {
    const res = await request(server.url, 'GET', `${PRODUCTS}?name=zeppelin`, { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual([
      {
        ID: op.activity.id,
        ActivityID: op.activity.activityId,
        Name: 'Zeppelin Ride',
        Description: 'Up and away.',
        DurationMinutes: 45,
        TimeZone: 'Europe/Lisbon',
        Price: { Amount: 12900, Currency: 'EUR' },
        MaxParticipants: 4,
      },
    ]);
  });

  it("lists only the caller's active shopfront products, ordered by Name ignoring case, then ID", async () => {
    const res = await request(server.url, 'GET', PRODUCTS, { key: op.ota });
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Alpha Climb', 'alpha climb', 'beta Tour', 'Zeppelin Ride']);
    expect(res.body[0].ID).toBe(alphaClimb.id);
    expect(res.body[1].ID).toBe(alphaClimbTwin.id);
    expect(res.body.map((p: { ID: number }) => p.ID)).not.toContain(hidden.id);
    expect(res.body.map((p: { ID: number }) => p.ID)).not.toContain(retired.id);
  });

  it('filters by case-insensitive substring of the name', async () => {
    expect(names((await request(server.url, 'GET', `${PRODUCTS}?name=CLIMB`, { key: op.ota })).body)).toEqual(['Alpha Climb', 'alpha climb']);
    expect(names((await request(server.url, 'GET', `${PRODUCTS}?name=a%20t`, { key: op.ota })).body)).toEqual(['beta Tour']);
    expect((await request(server.url, 'GET', `${PRODUCTS}?name=hidden`, { key: op.ota })).body).toEqual([]);
  });

  it('treats LIKE wildcards in the filter as plain text', async () => {
    expect((await request(server.url, 'GET', `${PRODUCTS}?name=%25`, { key: op.ota })).body).toEqual([]);
    expect((await request(server.url, 'GET', `${PRODUCTS}?name=_`, { key: op.ota })).body).toEqual([]);
  });

  it('never shows another account its products', async () => {
    const res = await request(server.url, 'GET', PRODUCTS, { key: other.ota });
    expect(names(res.body)).toEqual(['Alpha Climb elsewhere']);
  });

  it('carries a strong ETag and Cache-Control: private, max-age=60', async () => {
    const res = await request(server.url, 'GET', PRODUCTS, { key: op.ota });
    expect(res.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    const again = await request(server.url, 'GET', PRODUCTS, { key: op.ota });
    expect(again.headers.get('etag')).toBe(res.headers.get('etag'));
    const filtered = await request(server.url, 'GET', `${PRODUCTS}?name=beta`, { key: op.ota });
    expect(filtered.headers.get('etag')).not.toBe(res.headers.get('etag'));
  });

  it('answers If-None-Match with 304 and no body while the list is unchanged', async () => {
    const first = await request(server.url, 'GET', PRODUCTS, { key: op.ota });
    const etag = first.headers.get('etag')!;
    for (const header of [etag, `W/${etag}`, `"nope", ${etag}`, '*']) {
      const res = await request(server.url, 'GET', PRODUCTS, { key: op.ota, headers: { 'if-none-match': header } });
      expect(res.status, header).toBe(304);
      expect(res.text).toBe('');
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('private, max-age=60');
    }
    const stale = await request(server.url, 'GET', PRODUCTS, { key: op.ota, headers: { 'if-none-match': '"something-else"' } });
    expect(stale.status).toBe(200);
    expect(stale.text).toBe(first.text);
  });

  it('changes the ETag when a product changes, so an old validator gets the new list', async () => {
    const throwaway = await createOperator(db.pool);
    const before = await request(server.url, 'GET', PRODUCTS, { key: throwaway.ota });
    await db.pool.query('UPDATE activities SET price_minor = price_minor + 1 WHERE id = $1', [throwaway.activity.id]);
    const after = await request(server.url, 'GET', PRODUCTS, { key: throwaway.ota, headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    expect(after.body[0].Price.Amount).toBe(before.body[0].Price.Amount + 1);
  });
});

describe('GET resolve-product', () => {
  it('resolves by ID to the same object the list shows', async () => {
    const list = await request(server.url, 'GET', PRODUCTS, { key: op.ota });
    const res = await request(server.url, 'GET', `${RESOLVE}?ID=${betaTour.id}`, { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(list.body.find((p: { ID: number }) => p.ID === betaTour.id));
  });

  it('resolves by exact Name ignoring case; of two equal names the lowest ID wins', async () => {
    const res = await request(server.url, 'GET', `${RESOLVE}?Name=ALPHA%20CLIMB`, { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.body.ID).toBe(alphaClimb.id);
    expect((await request(server.url, 'GET', `${RESOLVE}?Name=Beta%20tour`, { key: op.ota })).body.ID).toBe(betaTour.id);
  });

  it('does not match a partial Name', async () => {
    const res = await request(server.url, 'GET', `${RESOLVE}?Name=Alpha`, { key: op.ota });
    expect(res.status).toBe(404);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/not-found`);
  });

  it.each([
    ['neither ID nor Name', ''],
    ['both ID and Name', '?ID=1&Name=beta%20Tour'],
    ['a non-integer ID', '?ID=abc'],
    ['a decimal ID', '?ID=1.5'],
    ['ID 0', '?ID=0'],
    ['a negative ID', '?ID=-3'],
    ['a hexadecimal ID', '?ID=0x10'],
    ['an empty ID', '?ID='],
    ['an empty Name', '?Name='],
    ['ID twice', '?ID=1&ID=2'],
  ])('answers 400 for %s', async (_label, query) => {
    const res = await request(server.url, 'GET', `${RESOLVE}${query}`, { key: op.ota });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/invalid-request`, title: 'Bad Request', status: 400, instance: RESOLVE });
    expect(res.body.detail).toMatch(/ID|Name/);
  });

  it.each([
    ['an unknown ID', () => '?ID=987654321'],
    ["another account's product", () => `?ID=${other.activity.id}`],
    ["another account's product by Name", () => '?Name=Alpha%20Climb%20elsewhere'],
    ['a product not in the shopfront', () => `?ID=${hidden.id}`],
    ['an inactive product', () => `?ID=${retired.id}`],
    ['an unknown Name', () => '?Name=Nothing%20like%20it'],
  ])('answers 404 for %s', async (_label, query) => {
    const res = await request(server.url, 'GET', `${RESOLVE}${query()}`, { key: op.ota });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, title: 'Not Found', status: 404, instance: RESOLVE });
  });
});
