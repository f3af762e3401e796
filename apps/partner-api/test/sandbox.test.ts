// The partners' sandbox (issue 40): a test key books the same products and timeslots on a test copy of their capacity.
// Its bookings never take live places and live bookings never take test places; a test key never reads, changes or
// syncs a live booking and a live key never a test one (404, INVALID_BOOKING_UUID on OCTO); test bookings say so
// (Test: true, OCTO's testMode) and so do their events, from which the webhooks are sent.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createTestTimeslot, futureDate, request, type TestTimeslot } from '@backbone/testkit';
import { bookingBody, createOperator, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const BOOKING = '/api/v2/ota/partner/booking';
let op: Operator;
let sandbox: string;
let day = 0;

beforeAll(async () => {
  op = await createOperator(db.pool, { activity: { maxParticipants: 10 } });
  const { rows } = await db.pool.query<{ partner_id: string }>(`SELECT partner_id FROM api_keys WHERE account_id = $1 AND partner_id IS NOT NULL`, [
    op.account.id,
  ]);
  // The live key's partner's test key: the same reseller, in test mode.
  sandbox = (await createApiKey(db.pool, op.account.id, { name: 'sandbox', scopes: ['ota'], partnerId: rows[0]!.partner_id, test: true })).secret;
});

async function freshSlot(capacity: number): Promise<TestTimeslot> {
  day++;
  return createTestTimeslot(db.pool, op.activity, { date: futureDate(20 + day), time: '10:00', capacity });
}

const book = (key: string, slot: TestTimeslot, participants: number, extra: Record<string, unknown> = {}) =>
  request(server.url, 'POST', BOOKING, { key, body: bookingBody(op.activity, slot, { Participants: participants, ...extra }) });

async function places(slot: TestTimeslot): Promise<{ booked: number; testBooked: number }> {
  const { rows } = await db.pool.query<{ booked: number; test_booked: number }>(`SELECT booked, test_booked FROM timeslots WHERE id = $1`, [slot.id]);
  return { booked: rows[0]!.booked, testBooked: rows[0]!.test_booked };
}

async function available(key: string, slot: TestTimeslot): Promise<number | undefined> {
  const res = await request(server.url, 'GET', `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${slot.date}`, { key });
  expect(res.status).toBe(200);
  return res.body.find((t: { Time: string }) => t.Time === slot.time)?.Available;
}

describe('the sandbox’s capacity', () => {
  it('takes test places for a test key and live places for a live key, each up to the whole capacity', async () => {
    const slot = await freshSlot(4);
    const test = await book(sandbox, slot, 4);
    expect(test.status).toBe(201);
    expect(test.body.Test).toBe(true);
    expect(await places(slot)).toEqual({ booked: 0, testBooked: 4 });
    expect(await available(op.ota, slot)).toBe(4);
    expect(await available(sandbox, slot)).toBeUndefined();

    const live = await book(op.ota, slot, 4);
    expect(live.status).toBe(201);
    expect(live.body).not.toHaveProperty('Test');
    expect(await places(slot)).toEqual({ booked: 4, testBooked: 4 });

    // Full both ways now: neither mode gets a place from the other's.
    expect((await book(sandbox, slot, 1)).status).toBe(409);
    expect((await book(op.ota, slot, 1)).status).toBe(409);

    // Cancelling the test booking frees a test place, never a live one.
    const cancelled = await request(server.url, 'POST', `${BOOKING}/${test.body.Reference}/cancel`, { key: sandbox, body: {} });
    expect(cancelled.status).toBe(200);
    expect(await places(slot)).toEqual({ booked: 4, testBooked: 0 });
    expect(await available(sandbox, slot)).toBe(4);
    expect((await book(op.ota, slot, 1)).status).toBe(409);
  });

  it('moves a test booking on test places, and an expired test hold frees test places', async () => {
    const from = await freshSlot(5);
    const to = await freshSlot(5);
    const held = await book(sandbox, from, 2, { Hold: { Minutes: 15 } });
    expect(held.status).toBe(201);
    const moved = await request(server.url, 'PATCH', `${BOOKING}/${held.body.Reference}`, {
      key: sandbox,
      body: { Date: to.date, Time: to.time, Participants: 3 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ Test: true, Participants: 3 });
    expect(await places(from)).toEqual({ booked: 0, testBooked: 0 });
    expect(await places(to)).toEqual({ booked: 0, testBooked: 3 });

    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [held.body.Reference]);
    // The lapsed test hold counts free for a test key at once, and its release gives back test places only.
    expect(await available(sandbox, to)).toBe(5);
    expect((await book(sandbox, to, 5)).status).toBe(201);
    expect(await places(to)).toEqual({ booked: 0, testBooked: 5 });
  });
});

describe('the sandbox’s walls', () => {
  it('a live key never reads, changes or cancels a test booking, and a test key never a live one', async () => {
    const slot = await freshSlot(10);
    const test = (await book(sandbox, slot, 1)).body.Reference;
    const live = (await book(op.ota, slot, 1)).body.Reference;
    for (const [key, reference] of [
      [op.ota, test],
      [sandbox, live],
    ] as const) {
      expect((await request(server.url, 'GET', `${BOOKING}/${reference}`, { key })).status).toBe(404);
      expect((await request(server.url, 'PATCH', `${BOOKING}/${reference}`, { key, body: { Participants: 2 } })).status).toBe(404);
      expect((await request(server.url, 'POST', `${BOOKING}/${reference}/cancel`, { key, body: {} })).status).toBe(404);
    }
    expect(await places(slot)).toEqual({ booked: 1, testBooked: 1 });
  });

  it('syncs test bookings only to test keys and live ones only to live keys', async () => {
    const since = new Date(Date.now() - 60_000).toISOString();
    const slot = await freshSlot(10);
    const test = (await book(sandbox, slot, 1)).body.Reference;
    const live = (await book(op.ota, slot, 1)).body.Reference;
    const feed = async (key: string) => {
      const res = await request(server.url, 'GET', `/api/v2/ota/partner/bookings?UpdatedSince=${since}&Limit=500`, { key });
      expect(res.status).toBe(200);
      return res.body.Bookings.map((b: { Reference: string }) => b.Reference) as string[];
    };
    // The feed serves changes once every older transaction has ended: poll until ours show.
    await expect.poll(() => feed(sandbox), { timeout: 60_000 }).toContain(test);
    expect(await feed(sandbox)).not.toContain(live);
    await expect.poll(() => feed(op.ota), { timeout: 60_000 }).toContain(live);
    expect(await feed(op.ota)).not.toContain(test);
  });

  it('marks a test booking’s events (the webhooks’ payloads) Test: true, and leaves live ones unmarked', async () => {
    const slot = await freshSlot(10);
    const test = (await book(sandbox, slot, 1, { Hold: { Minutes: 15 } })).body.Reference;
    await request(server.url, 'POST', `${BOOKING}/${test}/confirm`, { key: sandbox, body: {} });
    await request(server.url, 'POST', `${BOOKING}/${test}/cancel`, { key: sandbox, body: {} });
    const live = (await book(op.ota, slot, 1)).body.Reference;
    const { rows } = await db.pool.query<{ type: string; reference: string; test: boolean | null }>(
      `SELECT type, payload->>'Reference' AS reference, (payload->>'Test')::boolean AS test FROM outbox_events
        WHERE account_id = $1 AND payload->>'Reference' = ANY($2) ORDER BY id`,
      [op.account.id, [test, live]],
    );
    expect(rows.map((r) => [r.type, r.reference, r.test])).toEqual([
      ['booking.created', test, true],
      ['booking.confirmed', test, true],
      ['booking.cancelled', test, true],
      ['booking.created', live, null],
    ]);
  });
});

describe('the sandbox on OCTO', () => {
  const octo = (key: string, method: string, path: string, body?: unknown) =>
    request(server.url, method, `/octo${path}`, { key, ...(body === undefined ? {} : { body }) });

  it('answers testMode, shows test vacancies, and walls test and live bookings apart', async () => {
    const slot = await freshSlot(3);
    const availability = await octo(sandbox, 'POST', '/availability', { productId: op.activity.activityId, optionId: 'DEFAULT', localDate: slot.date });
    const availabilityId = availability.body[0].id;
    const reservation = { productId: op.activity.activityId, optionId: 'DEFAULT', availabilityId, unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }] };
    const test = await octo(sandbox, 'POST', '/bookings', reservation);
    expect(test.status).toBe(200);
    expect(test.body.testMode).toBe(true);
    const live = await octo(op.ota, 'POST', '/bookings', reservation);
    expect(live.body.testMode).toBe(false);

    const vacancies = async (key: string) =>
      (await octo(key, 'POST', '/availability', { productId: op.activity.activityId, optionId: 'DEFAULT', availabilityIds: [availabilityId] })).body[0]
        .vacancies;
    expect(await vacancies(sandbox)).toBe(1);
    expect(await vacancies(op.ota)).toBe(1);

    const crossed = await octo(op.ota, 'GET', `/bookings/${test.body.uuid}`);
    expect(crossed.body).toMatchObject({ error: 'INVALID_BOOKING_UUID' });
    expect((await octo(sandbox, 'POST', `/bookings/${live.body.uuid}/cancel`, {})).body).toMatchObject({ error: 'INVALID_BOOKING_UUID' });
    expect((await octo(op.ota, 'GET', `/bookings?supplierReference=${test.body.supplierReference}`)).body).toEqual([]);
    expect((await octo(sandbox, 'GET', `/bookings?supplierReference=${test.body.supplierReference}`)).body).toHaveLength(1);

    // The same reseller uuid in each mode names two bookings, neither revealing the other.
    const uuid = crypto.randomUUID();
    expect((await octo(sandbox, 'POST', '/bookings', { ...reservation, uuid, unitItems: [{ unitId: 'adult' }] })).status).toBe(200);
    expect((await octo(op.ota, 'POST', '/bookings', { ...reservation, uuid, unitItems: [{ unitId: 'adult' }] })).status).toBe(200);
  });
});
