// Idempotency-Key on POST booking, confirm and cancel: byte-identical replays that book once, one booking under
// concurrent retries, 422 for a reused key with another body or on another resource, keys that a failed first attempt
// leaves free, and keys that belong to the partner that sent them.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createTestActivity, createTestTimeslot, futureDate, request } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import { bookingBody, bookingPath, createOperator, databaseFingerprint, keepAliveClient, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const BOOKING = '/api/v2/ota/partner/booking';
const day = futureDate(12);
let op: Operator;
let keyCounter = 0;
const newKey = () => `idem-${Date.now()}-${++keyCounter}`;

const book = (body: unknown, idempotencyKey?: string, key = op.ota) =>
  request(server.url, 'POST', BOOKING, { key, body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

async function slotWithCapacity(capacity: number): Promise<{ activity: Activity; slot: { date: string; time: string } }> {
  const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 10 });
  await createTestTimeslot(db.pool, activity, { date: day, time: '09:00', capacity });
  return { activity, slot: { date: day, time: '09:00' } };
}

const bookingsOf = async (activity: Activity) =>
  (
    await db.pool.query<{ count: number; booked: number }>(
      `SELECT (SELECT count(*) FROM bookings WHERE activity_id = $1) AS count, (SELECT sum(booked) FROM timeslots WHERE activity_id = $1) AS booked`,
      [activity.id],
    )
  ).rows[0]!;

beforeAll(async () => {
  op = await createOperator(db.pool);
});

describe('Idempotency-Key', () => {
  it('replays the first answer byte for byte, marked Idempotent-Replayed, and books once', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const key = newKey();
    const body = bookingBody(activity, slot, { Participants: 2 });
    const first = await book(body, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (let i = 0; i < 3; i++) {
      const replay = await book(body, key);
      expect(replay.status).toBe(201);
      expect(replay.text).toBe(first.text);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(await bookingsOf(activity)).toEqual({ count: 1, booked: 2 });
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM outbox_events WHERE payload->>'ActivityID' = $1`, [activity.activityId])).rows[0].n).toBe(1);
  });

  it('treats the same JSON with members in another order as the same request', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const key = newKey();
    const body = bookingBody(activity, slot);
    const first = await book(body, key);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await book(reordered, key);
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(first.text);
    expect((await bookingsOf(activity)).count).toBe(1);
  });

  it('answers 422 /idempotency-conflict to the same key with another body, and books nothing more', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const key = newKey();
    expect((await book(bookingBody(activity, slot, { Participants: 1 }), key)).status).toBe(201);
    const before = await databaseFingerprint(db.pool);
    const conflict = await book(bookingBody(activity, slot, { Participants: 2 }), key);
    expect(conflict.status).toBe(422);
    expect(conflict.body).toMatchObject({ type: `${PROBLEM_BASE}/idempotency-conflict`, status: 422, instance: BOOKING });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('books once when the same key arrives many times at once', async () => {
    const { activity, slot } = await slotWithCapacity(50);
    const key = newKey();
    const body = bookingBody(activity, slot, { Participants: 3 });
    const client = keepAliveClient(server.url, 25);
    try {
      const responses = await Promise.all(
        Array.from({ length: 25 }, () => client.send('POST', BOOKING, { key: op.ota, body, headers: { 'idempotency-key': key } })),
      );
      const created = responses.filter((r) => r.status === 201);
      const inProgress = responses.filter((r) => r.status === 409);
      expect(created.length + inProgress.length).toBe(responses.length);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const r of inProgress) expect(r.body.type).toBe(`${PROBLEM_BASE}/idempotency-in-progress`);
      // Every 201 is the one booking: the original or its replay.
      expect(new Set(created.map((r) => r.text)).size).toBe(1);
      expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    } finally {
      client.close();
    }
    expect(await bookingsOf(activity)).toEqual({ count: 1, booked: 3 });
    // After the race, the key replays.
    const later = await book(body, key);
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
  });

  it('is not burned by a first request that failed body validation', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const key = newKey();
    const invalid = await book({ ...bookingBody(activity, slot), Customer: { FirstName: 'Ada' } }, key);
    expect(invalid.status).toBe(422);
    const valid = await book(bookingBody(activity, slot), key);
    expect(valid.status).toBe(201);
    expect(valid.headers.get('idempotent-replayed')).toBeNull();
    expect((await bookingsOf(activity)).count).toBe(1);
  });

  it('is not burned by a first request refused by the activity rules (422)', async () => {
    const { activity, slot } = await slotWithCapacity(50);
    const key = newKey();
    expect((await book(bookingBody(activity, slot, { Participants: 11 }), key)).status).toBe(422);
    expect((await book(bookingBody(activity, slot, { Participants: 10 }), key)).status).toBe(201);
  });

  it('is not burned by a first request that got 409, so the customer can pick another timeslot', async () => {
    const { activity, slot } = await slotWithCapacity(1);
    await createTestTimeslot(db.pool, activity, { date: day, time: '11:00', capacity: 5 });
    const key = newKey();
    const full = await book(bookingBody(activity, slot, { Participants: 2 }), key);
    expect(full.status).toBe(409);
    const other = await book(bookingBody(activity, { date: day, time: '11:00' }, { Participants: 2 }), key);
    expect(other.status).toBe(201);
    expect(await bookingsOf(activity)).toEqual({ count: 1, booked: 2 });
    // The stored answer is the 201: replaying it gives it back.
    expect((await book(bookingBody(activity, { date: day, time: '11:00' }, { Participants: 2 }), key)).text).toBe(other.text);
  });

  it('keeps keys apart per account', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const neighbour = await createOperator(db.pool);
    await createTestTimeslot(db.pool, neighbour.activity, { date: day, time: '09:00', capacity: 10 });
    const key = newKey();
    const mine = await book(bookingBody(activity, slot), key);
    const theirs = await book(bookingBody(neighbour.activity, slot), key, neighbour.ota);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.Reference).not.toBe(mine.body.Reference);
  });

  it('books every time without a key', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const body = bookingBody(activity, slot);
    const a = await book(body);
    const b = await book(body);
    expect(a.body.Reference).not.toBe(b.body.Reference);
    expect((await bookingsOf(activity)).count).toBe(2);
  });

  it.each([
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a space', 'two words'],
  ])('answers 400 to a key %s', async (_label, key) => {
    const { activity, slot } = await slotWithCapacity(10);
    const res = await book(bookingBody(activity, slot), key);
    expect(res.status).toBe(400);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/invalid-request`);
    expect((await bookingsOf(activity)).count).toBe(0);
  });
});

describe('Idempotency-Key scope: the caller and the resource', () => {
  const cancel = (reference: string, key: string, ota: string, body?: unknown) =>
    request(server.url, 'POST', bookingPath(reference, 'cancel'), { key: ota, headers: { 'idempotency-key': key }, ...(body === undefined ? {} : { body }) });
  const confirm = (reference: string, key: string, ota: string, body: unknown) =>
    request(server.url, 'POST', bookingPath(reference, 'confirm'), { key: ota, headers: { 'idempotency-key': key }, body });
  const statusOf = async (reference: string) =>
    (await db.pool.query<{ status: string }>(`SELECT status FROM bookings WHERE reference = $1`, [reference])).rows[0]!.status;

  it("answers 422 to the key of one booking's cancel sent to another booking's cancel, which stays confirmed", async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const first = (await book(bookingBody(activity, slot))).body.Reference as string;
    const second = (await book(bookingBody(activity, slot))).body.Reference as string;
    const key = newKey();
    const cancelled = await cancel(first, key, op.ota, { Reason: 'r' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.Reference).toBe(first);
    const before = await databaseFingerprint(db.pool);
    const other = await cancel(second, key, op.ota, { Reason: 'r' });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ type: `${PROBLEM_BASE}/idempotency-conflict`, instance: bookingPath(second, 'cancel') });
    expect(other.text).not.toContain(first);
    expect(await statusOf(second)).toBe('confirmed');
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    // The first cancel still replays for its own booking.
    const replay = await cancel(first, key, op.ota, { Reason: 'r' });
    expect(replay.text).toBe(cancelled.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it("answers 422 to the key of one hold's confirm sent to another hold's confirm, which stays on hold", async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const hold = () => book(bookingBody(activity, slot, { Hold: { Minutes: 30 } }));
    const first = (await hold()).body.Reference as string;
    const second = (await hold()).body.Reference as string;
    const key = newKey();
    const confirmed = await confirm(first, key, op.ota, {});
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ Reference: first, Status: 'confirmed' });
    const other = await confirm(second, key, op.ota, {});
    expect(other.status).toBe(422);
    expect(other.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
    expect(await statusOf(second)).toBe('on_hold');
  });

  it('gives another partner of the same account its own booking for the key and body another partner used', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const otherPartner = await op.keyWith(['ota']);
    const key = newKey();
    const body = bookingBody(activity, slot, { Customer: { FirstName: 'Pat', LastName: 'Partner-One', Email: 'pat@one.example' } });
    const mine = await book(body, key);
    const theirs = await book(body, key, otherPartner);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.Reference).not.toBe(mine.body.Reference);
    expect(await bookingsOf(activity)).toEqual({ count: 2, booked: 2 });
    // And each partner reads only its own booking.
    expect((await request(server.url, 'GET', bookingPath(mine.body.Reference as string), { key: otherPartner })).status).toBe(404);
  });

  it("cancels the caller's own booking when another partner used the same key on a cancel without a body", async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const otherPartner = await op.keyWith(['ota']);
    const p1Booking = (await book(bookingBody(activity, slot, { Customer: { FirstName: 'One', LastName: 'First', Email: 'one@p1.example' } }))).body
      .Reference as string;
    const p2Booking = (
      await book(bookingBody(activity, slot, { Customer: { FirstName: 'Two', LastName: 'Second', Email: 'two@p2.example' } }), undefined, otherPartner)
    ).body.Reference as string;
    const key = newKey();
    expect((await cancel(p1Booking, key, op.ota)).status).toBe(200);
    const theirs = await cancel(p2Booking, key, otherPartner);
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body).toMatchObject({ Reference: p2Booking, Status: 'cancelled', Customer: { Email: 'two@p2.example' } });
    expect(theirs.text).not.toContain('one@p1.example');
    expect(await statusOf(p2Booking)).toBe('cancelled');
  });

  it('replays for another key of the same partner (a rotated key), and refuses the key on another operation', async () => {
    const { activity, slot } = await slotWithCapacity(10);
    const key = newKey();
    const body = bookingBody(activity, slot);
    const first = await book(body, key, op.ota);
    const partnerId = (await db.pool.query<{ partner_id: string }>(`SELECT partner_id FROM bookings WHERE reference = $1`, [first.body.Reference])).rows[0]!
      .partner_id;
    const rotated = (await createApiKey(db.pool, op.account.id, { name: 'rotated', scopes: ['ota'], partnerId })).secret;
    const viaRotated = await book(body, key, rotated);
    expect(viaRotated.text).toBe(first.text);
    expect(viaRotated.headers.get('idempotent-replayed')).toBe('true');
    expect(await bookingsOf(activity)).toEqual({ count: 1, booked: 1 });
    const onCancel = await cancel(first.body.Reference as string, key, op.ota);
    expect(onCancel.status).toBe(422);
    expect(onCancel.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
    expect(await statusOf(first.body.Reference as string)).toBe('confirmed');
  });
});
