// The booking page's API, walls and refusals: an unknown slug or a page turned off is a 404, a token opens its own
// booking alone (not another page's, not a guessed one), the honeypot and the terms, the 50 customers racing for the
// last 3 places, and the per-address limits (5 live holds, rate limits with Retry-After).
import { beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import { createAddressRateLimiter, createLogger, createRateLimitRedis } from '@backbone/http';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestTimeslot, futureDate, request, serveTestApp, useTestRedis } from '@backbone/testkit';
import { CUSTOMER, createShopOperator, freshSlot, shopClient, type ShopOperator } from './shop-support.js';
import { databaseFingerprint, usePartnerApi } from './support.js';

const { db, server } = usePartnerApi({ poolSize: 30 });
const redis = useTestRedis();
let op: ShopOperator;
let other: ShopOperator;
let shop: ReturnType<typeof shopClient>;

beforeAll(async () => {
  op = await createShopOperator(db.pool, { terms: 'Be on time.' });
  other = await createShopOperator(db.pool);
  shop = shopClient(() => server.url, op.slug);
});

const BOOK = { Customer: CUSTOMER, AcceptTerms: true };

describe('walls', () => {
  it('an unknown slug, and a page turned off, are a 404 problem', async () => {
    const unknown = await request(server.url, 'GET', '/api/v2/shop/no-such-page');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    await saveBookingPage(db.pool, other.account.id, { enabled: false });
    expect((await request(server.url, 'GET', `/api/v2/shop/${other.slug}`)).status).toBe(404);
    expect(await saveBookingPage(db.pool, other.account.id, { enabled: true })).toMatchObject({ enabled: true, slug: other.slug });
    const back = await request(server.url, 'GET', `/api/v2/shop/${other.slug}`);
    expect(back.status, back.text).toBe(200);
  });

  it('a token opens its booking on its own page alone: not through another page, and a guessed one opens nothing', async () => {
    const held = await shop.hold(op.activity, await freshSlot(db.pool, op.activity), 1);
    expect(held.status).toBe(201);
    const elsewhere = shopClient(() => server.url, other.slug);
    expect((await elsewhere.booking(held.body.Token)).status).toBe(404);
    expect((await elsewhere.confirm(held.body.Token, BOOK)).status).toBe(404);
    const guessed = 'A'.repeat(43);
    expect((await shop.booking(guessed)).status).toBe(404);
    expect((await shop.booking('short')).status).toBe(400);
    // Another account's activity cannot be held through this page.
    const foreign = await shop.hold(other.activity, { date: futureDate(40), time: '10:00' }, 1);
    expect(foreign.status).toBe(422);
  });

  it('the manage answer shows that booking alone: no partner, payment reference or anything of other customers', async () => {
    const held = await shop.hold(op.activity, await freshSlot(db.pool, op.activity), 1);
    await shop.confirm(held.body.Token, BOOK);
    const look = await shop.booking(held.body.Token);
    expect(Object.keys(look.body).sort()).toEqual(
      [
        'ActivityID',
        'ActivityName',
        'ChangeableUntil',
        'CreatedAt',
        'Customer',
        'Date',
        'ExpiresAt',
        'Participants',
        'Price',
        'Reference',
        'StartsAt',
        'Status',
        'Time',
        'TimeZone',
      ].sort(),
    );
    expect(look.headers.get('cache-control')).toBe('no-store');
  });
});

describe('refusals change nothing', () => {
  it('a filled honeypot, terms not accepted, or missing customer details are 422s and book nothing', async () => {
    const held = await shop.hold(op.activity, await freshSlot(db.pool, op.activity), 1);
    const before = await databaseFingerprint(db.pool);
    for (const body of [
      { ...BOOK, Website: 'http://spam.example' },
      { Customer: CUSTOMER },
      { Customer: { ...CUSTOMER, Phone: undefined }, AcceptTerms: true },
    ]) {
      const refused = await shop.confirm(held.body.Token, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it("too many participants, and a full timeslot, are refused with the partner API's answers", async () => {
    const slot = await freshSlot(db.pool, op.activity, 2);
    expect((await shop.hold(op.activity, slot, 7)).status).toBe(422);
    expect((await shop.hold(op.activity, slot, 2)).status).toBe(201);
    const full = await shop.hold(op.activity, slot, 1);
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ Available: 0 });
  });

  it('an expired hold cannot be booked (409 /hold-expired), and past the cutoff the customer cannot cancel (409)', async () => {
    const held = await shop.hold(op.activity, await freshSlot(db.pool, op.activity), 1);
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [held.body.Booking.Reference]);
    const late = await shop.confirm(held.body.Token, BOOK);
    expect(late.status).toBe(409);
    expect(late.body.type).toMatch(/\/hold-expired$/);

    const soon = await createTestTimeslot(db.pool, op.activity, { date: futureDate(1), time: '23:00', capacity: 5 });
    const booked = await shop.hold(op.activity, soon, 1);
    await shop.confirm(booked.body.Token, BOOK);
    await db.pool.query(`UPDATE activities SET cancellation_cutoff_minutes = 100000 WHERE account_id = $1`, [op.account.id]);
    const cancel = await shop.cancel(booked.body.Token);
    await db.pool.query(`UPDATE activities SET cancellation_cutoff_minutes = 0 WHERE account_id = $1`, [op.account.id]);
    expect(cancel.status).toBe(409);
    expect(cancel.body.type).toMatch(/\/cancellation-window-closed$/);
  });
});

describe('never oversold', () => {
  it('50 customers racing for the last 3 places through the page get exactly 3', async () => {
    const racer = await createShopOperator(db.pool);
    const slot = await freshSlot(db.pool, racer.activity, 3);
    // Each customer comes from an address of its own (the gateway's X-Forwarded-For), as on the internet.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(server.url, 'POST', `/api/v2/shop/${racer.slug}/holds`, {
          body: { ActivityID: racer.activity.activityId, Date: slot.date, Time: slot.time, Participants: 1 },
          headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(47);
    const { rows } = await db.pool.query<{ booked: number }>(`SELECT booked FROM timeslots WHERE id = $1`, [slot.id]);
    expect(rows[0]!.booked).toBe(3);
  });
});

describe('abuse limits', () => {
  it('an address holds at most 5 live holds: the sixth is a 429 with Retry-After, and takes no places', async () => {
    const slot = await freshSlot(db.pool, op.activity, 20);
    const from = { 'x-forwarded-for': '198.51.100.7' };
    for (let i = 0; i < 5; i++)
      expect((await shop.send('POST', '/holds', { ActivityID: op.activity.activityId, Date: slot.date, Time: slot.time, Participants: 1 }, from)).status).toBe(
        201,
      );
    const sixth = await shop.send('POST', '/holds', { ActivityID: op.activity.activityId, Date: slot.date, Time: slot.time, Participants: 1 }, from);
    expect(sixth.status).toBe(429);
    expect(sixth.body.type).toMatch(/\/too-many-holds$/);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    const { rows } = await db.pool.query<{ booked: number }>(`SELECT booked FROM timeslots WHERE id = $1`, [slot.id]);
    expect(rows[0]!.booked).toBe(5);
  });

  it('per-address rate limits on reads answer 429 with Retry-After once the budget is spent, for that address only', async () => {
    const limiterRedis = createRateLimitRedis(redis.redisUrl, { clientName: 'shop-limits-test', timeoutMs: 1000 });
    // The limiter's connection queues nothing while it connects (a check then lets the request through).
    await new Promise((resolve) => limiterRedis.once('ready', resolve));
    const limited = await serveTestApp(
      createTestPartnerApp(db.pool, {
        shopRateLimiter: createAddressRateLimiter({
          redis: limiterRedis,
          logger: createLogger({ level: 'silent', name: 'test' }),
          keyPrefix: `${redis.prefix}:shop-limits`,
          budgets: { read: { perSecond: 1, burst: 3 }, hold: { perSecond: 1, burst: 3 }, upload: { perSecond: 1, burst: 3 } },
        }),
      }),
    );
    try {
      const read = (address: string) => request(limited.url, 'GET', `/api/v2/shop/${op.slug}`, { headers: { 'x-forwarded-for': address } });
      for (let i = 0; i < 3; i++) expect((await read('192.0.2.1')).status).toBe(200);
      const refused = await read('192.0.2.1');
      expect(refused.status).toBe(429);
      expect(refused.body.type).toMatch(/\/rate-limited$/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await read('192.0.2.2')).status).toBe(200);
    } finally {
      await limited.close();
      limiterRedis.disconnect();
    }
  });
});
