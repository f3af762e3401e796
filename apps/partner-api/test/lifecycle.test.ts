// The partner booking lifecycle through HTTP: hold, look up, confirm, cancel, hold expiry (with no sweeper running),
// the sweeper's pass, and the wall between partners. Times are moved in the database to control the clock.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createPartner } from '@backbone/db';
import { createTestAccount, createTestActivity, createTestQuestion, createTestTimeslot, futureDate, request, type TestTimeslot } from '@backbone/testkit';
import { cancelBooking, expireLapsedHolds } from '@backbone/use-cases';
import type { Activity } from '@backbone/domain';
import { bookingBody, bookingPath, createOperator, eventCount, PROBLEM_BASE, timeslotLedger, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const BOOKING = '/api/v2/ota/partner/booking';
let op: Operator;
let slotCounter = 0;

beforeAll(async () => {
  op = await createOperator(db.pool);
});

/** A fresh timeslot of `activity` (default: the operator's) so each test reads its own counter. */
async function freshSlot(capacity = 10, activity: Activity = op.activity): Promise<TestTimeslot> {
  slotCounter++;
  return createTestTimeslot(db.pool, activity, { date: futureDate(30 + slotCounter), time: '10:00', capacity });
}

async function hold(slot: TestTimeslot, overrides: Record<string, unknown> = {}, key = op.ota, activity: Activity = op.activity) {
  const res = await request(server.url, 'POST', BOOKING, { key, body: bookingBody(activity, slot, { Hold: { Minutes: 15 }, ...overrides }) });
  expect(res.status).toBe(201);
  return res.body;
}

async function book(slot: TestTimeslot, overrides: Record<string, unknown> = {}) {
  return request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(op.activity, slot, overrides) });
}

const send = (method: string, path: string, body?: unknown, key = op.ota) =>
  request(server.url, method, path, { key, ...(body === undefined ? {} : { body }) });

async function statusOf(reference: string): Promise<string> {
  const { rows } = await db.pool.query<{ status: string }>('SELECT status FROM bookings WHERE reference = $1', [reference]);
  return rows[0]!.status;
}

describe('hold and look up', () => {
  it('a hold answers 201 on_hold with ExpiresAt in Minutes, takes its places, and looks up the same', async () => {
    const slot = await freshSlot(5);
    const before = Date.now();
    const held = await hold(slot, { Participants: 3, Hold: { Minutes: 20 } });
    expect(held.Status).toBe('on_hold');
    const expires = Date.parse(held.ExpiresAt);
    expect(expires - before).toBeGreaterThan(19 * 60_000);
    expect(expires - before).toBeLessThan(21 * 60_000);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 3, live: 3 });

    const look = await send('GET', bookingPath(held.Reference.toLowerCase()));
    expect(look.status).toBe(200);
    expect(look.body).toMatchObject({ ...held, Status: 'on_hold', CancelledAt: null, CancellationReason: null, UpdatedAt: expect.any(String) });
    expect(await eventCount(db.pool, held.Reference, 'booking.created')).toBe(1);
  });

  it('a booking made at once is confirmed, with no ExpiresAt', async () => {
    const slot = await freshSlot();
    const res = await book(slot);
    expect(res.status).toBe(201);
    const look = await send('GET', bookingPath(res.body.Reference));
    expect(look.body).toMatchObject({ Status: 'confirmed', ExpiresAt: null, CancelledAt: null });
  });

  it('an unknown reference is a 404', async () => {
    const res = await send('GET', bookingPath('2222-2222'));
    expect(res.status).toBe(404);
  });
});

describe('confirm', () => {
  it('completes the customer from the hold and the confirm, writes booking.confirmed once, and is idempotent', async () => {
    const slot = await freshSlot();
    const held = await hold(slot, { Customer: { FirstName: 'Ada' }, PaymentReference: undefined });
    const confirm = await send('POST', bookingPath(held.Reference, 'confirm'), {
      Customer: { LastName: 'Lovelace', Email: 'ada@example.com' },
      PaymentReference: 'PAY-9',
    });
    expect(confirm.status).toBe(200);
    expect(confirm.body).toMatchObject({
      Reference: held.Reference,
      Status: 'confirmed',
      ExpiresAt: null,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: null },
      PaymentReference: 'PAY-9',
    });
    const again = await send('POST', bookingPath(held.Reference, 'confirm'), {});
    expect(again.status).toBe(200);
    expect(again.body).toEqual((await send('GET', bookingPath(held.Reference))).body);
    expect(again.body.Status).toBe('confirmed');
    expect(await eventCount(db.pool, held.Reference, 'booking.confirmed')).toBe(1);
    const { rows } = await db.pool.query(`SELECT payload FROM outbox_events WHERE type = 'booking.confirmed' AND payload->>'Reference' = $1`, [held.Reference]);
    expect(rows[0].payload).toMatchObject({ Reference: held.Reference, Status: 'confirmed', PartnerID: expect.any(String) });
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 1, live: 1 });
  });

  it('names every required customer member missing from both the hold and the confirm (422), and changes nothing', async () => {
    const slot = await freshSlot();
    const held = await hold(slot, { Customer: { FirstName: 'Ada' } });
    const res = await send('POST', bookingPath(held.Reference, 'confirm'), { Customer: { Phone: '+44 20 7946 0958' } });
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain('Customer.LastName');
    expect(JSON.stringify(res.body)).toContain('Customer.Email');
    expect(JSON.stringify(res.body)).not.toContain('Customer.FirstName');
    expect(await statusOf(held.Reference)).toBe('on_hold');
    expect(await eventCount(db.pool, held.Reference, 'booking.confirmed')).toBe(0);
  });

  it('checks the answers against the activity questions', async () => {
    const activity = await createTestActivity(db.pool, op.account.id);
    const question = await createTestQuestion(db.pool, activity, { question: 'Can you swim?', type: 'checkbox', required: true });
    const slot = await freshSlot(10, activity);
    const held = await hold(slot, {}, op.ota, activity);
    const wrong = await send('POST', bookingPath(held.Reference, 'confirm'), { Answers: [{ QuestionID: question.id + 1000, Value: 'x' }] });
    expect(wrong.status).toBe(422);
    expect(await statusOf(held.Reference)).toBe('on_hold');
  });

  it('refuses to move the hold: another Participants or Date is a 422', async () => {
    const slot = await freshSlot();
    const held = await hold(slot, { Participants: 2 });
    expect((await send('POST', bookingPath(held.Reference, 'confirm'), { Participants: 3 })).status).toBe(422);
    expect((await send('POST', bookingPath(held.Reference, 'confirm'), { Participants: 2, Date: slot.date, Time: slot.time })).status).toBe(200);
  });

  it('a cancelled hold cannot be confirmed: 409 /invalid-transition', async () => {
    const slot = await freshSlot();
    const held = await hold(slot);
    expect((await send('POST', bookingPath(held.Reference, 'cancel'))).status).toBe(200);
    const res = await send('POST', bookingPath(held.Reference, 'confirm'), {});
    expect(res.status).toBe(409);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/invalid-transition`);
    expect(await eventCount(db.pool, held.Reference, 'booking.confirmed')).toBe(0);
  });
});

describe('cancel', () => {
  it('cancels without a body, releases the places once, and a second cancel answers 200 unchanged', async () => {
    const slot = await freshSlot(4);
    const created = await book(slot, { Participants: 3 });
    const first = await request(server.url, 'POST', bookingPath(created.body.Reference, 'cancel'), { key: op.ota });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ Status: 'cancelled', CancelledAt: expect.any(String), CancellationReason: null });
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 0, live: 0 });
    const second = await send('POST', bookingPath(created.body.Reference, 'cancel'), { Reason: 'again' });
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 0 });
    expect(await eventCount(db.pool, created.body.Reference, 'booking.cancelled')).toBe(1);
  });

  it('stores the Reason and puts it in the event', async () => {
    const slot = await freshSlot();
    const held = await hold(slot, { Participants: 2 });
    const res = await send('POST', bookingPath(held.Reference, 'cancel'), { Reason: 'Traveller ill' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Status: 'cancelled', CancellationReason: 'Traveller ill' });
    expect((await send('GET', bookingPath(held.Reference))).body.CancellationReason).toBe('Traveller ill');
    const { rows } = await db.pool.query(`SELECT payload FROM outbox_events WHERE type = 'booking.cancelled' AND payload->>'Reference' = $1`, [held.Reference]);
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({ Status: 'cancelled', Reason: 'Traveller ill', CancelledAt: expect.any(String), PartnerID: expect.any(String) });
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 0, live: 0 });
  });

  it('closes at the cutoff minute: open a minute before, 409 /cancellation-window-closed at it; the operator cancels anyway', async () => {
    const activity = await createTestActivity(db.pool, op.account.id);
    await db.pool.query('UPDATE activities SET cancellation_cutoff_minutes = 120 WHERE id = $1', [activity.id]);
    const slot = await freshSlot(10, activity);
    const early = await (async () => {
      const r = await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(activity, slot) });
      return r.body.Reference as string;
    })();
    const late = (await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(activity, slot, { Participants: 2 }) })).body.Reference as string;

    // The start 121 minutes away: a minute before the cutoff, still open.
    await db.pool.query(`UPDATE timeslots SET starts_at = now() + interval '121 minutes' WHERE id = $1`, [slot.id]);
    expect((await send('POST', bookingPath(early, 'cancel'))).status).toBe(200);

    // The start exactly 120 minutes away when set, so the cutoff is now (and passed by the time the cancel reads it).
    await db.pool.query(`UPDATE timeslots SET starts_at = now() + interval '120 minutes' WHERE id = $1`, [slot.id]);
    const closed = await send('POST', bookingPath(late, 'cancel'));
    expect(closed.status).toBe(409);
    expect(closed.body.type).toBe(`${PROBLEM_BASE}/cancellation-window-closed`);
    expect(await statusOf(late)).toBe('confirmed');
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 2, live: 2 });

    const byOperator = await cancelBooking(
      { pool: db.pool },
      { owner: { accountId: op.account.id, partnerId: null }, reference: late },
      { Reason: 'weather' },
      { kind: 'operator', userId: null, apiKeyId: null },
    );
    expect(byOperator.value).toMatchObject({ Status: 'cancelled', CancellationReason: 'weather' });
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 0, live: 0 });
    expect(await eventCount(db.pool, late, 'booking.cancelled')).toBe(1);
  });

  it('with the default cutoff, cancels until the start and not after it has started', async () => {
    const slot = await freshSlot();
    const created = await book(slot);
    await db.pool.query(`UPDATE timeslots SET starts_at = now() - interval '1 second' WHERE id = $1`, [slot.id]);
    const res = await send('POST', bookingPath(created.body.Reference, 'cancel'));
    expect(res.status).toBe(409);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/cancellation-window-closed`);
  });
});

describe('Idempotency-Key on confirm and cancel', () => {
  it('replays the first answer byte for byte, and refuses the key with another body', async () => {
    const slot = await freshSlot();
    const held = await hold(slot, { Customer: { FirstName: 'Ada' } });
    const withKey = (path: string, body: unknown, key: string) => request(server.url, 'POST', path, { key: op.ota, body, headers: { 'idempotency-key': key } });
    const confirmBody = { Customer: { LastName: 'Lovelace', Email: 'ada@example.com' } };
    const first = await withKey(bookingPath(held.Reference, 'confirm'), confirmBody, `confirm-${held.Reference}`);
    const replay = await withKey(bookingPath(held.Reference, 'confirm'), confirmBody, `confirm-${held.Reference}`);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.text).toBe(first.text);
    expect((await withKey(bookingPath(held.Reference, 'confirm'), { PaymentReference: 'other' }, `confirm-${held.Reference}`)).status).toBe(422);

    const cancels = await Promise.all(
      Array.from({ length: 5 }, () => withKey(bookingPath(held.Reference, 'cancel'), { Reason: 'ill' }, `cancel-${held.Reference}`)),
    );
    for (const c of cancels) expect([200, 409]).toContain(c.status);
    expect(cancels.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(await eventCount(db.pool, held.Reference, 'booking.cancelled')).toBe(1);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 0, live: 0 });
  });
});

describe('hold expiry, with no sweeper', () => {
  it('a hold expiring at T frees its places for a booking at T+1s; it shows expired; confirming it is 409 /hold-expired', async () => {
    const slot = await freshSlot(2);
    const held = await hold(slot, { Participants: 2, Hold: { Minutes: 1 } });
    expect((await book(slot)).status).toBe(409);
    const { rows } = await db.pool.query<{ t: Date }>(
      `UPDATE bookings SET expires_at = now() + interval '500 milliseconds' WHERE reference = $1 RETURNING expires_at AS t`,
      [held.Reference],
    );
    const expiresAt = rows[0]!.t.getTime();
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt + 1000 - Date.now())));

    const open = await send('GET', `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${slot.date}`);
    expect(open.status).toBe(200);
    expect(JSON.stringify(open.body)).toContain('10:00');

    const look = await send('GET', bookingPath(held.Reference));
    expect(look.body.Status).toBe('expired');

    const taken = await book(slot, { Participants: 2 });
    expect(taken.status).toBe(201);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 2, live: 2, unexpired: 2 });

    const confirm = await send('POST', bookingPath(held.Reference, 'confirm'), {});
    expect(confirm.status).toBe(409);
    expect(confirm.body.type).toBe(`${PROBLEM_BASE}/hold-expired`);
    const cancel = await send('POST', bookingPath(held.Reference, 'cancel'));
    expect(cancel.status).toBe(409);
    expect(cancel.body.type).toBe(`${PROBLEM_BASE}/invalid-transition`);
    expect(await statusOf(held.Reference)).toBe('expired');
    expect(await eventCount(db.pool, held.Reference, 'booking.expired')).toBe(1);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 2, live: 2 });
  });

  it('confirms racing the expiry either confirm or answer /hold-expired, never both, and no place is lost', async () => {
    const slot = await freshSlot(20);
    const holds = await Promise.all(Array.from({ length: 10 }, () => hold(slot, { Participants: 2, Hold: { Minutes: 1 } })));
    await db.pool.query(`UPDATE bookings SET expires_at = now() + interval '300 milliseconds' WHERE timeslot_id = $1`, [slot.id]);
    const results = await Promise.all(
      holds.flatMap((h, i) => [
        new Promise((resolve) => setTimeout(resolve, 200 + i * 20)).then(() => send('POST', bookingPath(h.Reference, 'confirm'), {})),
        new Promise((resolve) => setTimeout(resolve, 250 + i * 20)).then(() => book(slot, { Participants: 2 })),
      ]),
    );
    for (const [i, h] of holds.entries()) {
      const confirm = results[i * 2]!;
      const status = await statusOf(h.Reference);
      if (confirm.status === 200) {
        expect(confirm.body.Status).toBe('confirmed');
        expect(status).toBe('confirmed');
      } else {
        expect(confirm.status).toBe(409);
        expect(confirm.body.type).toBe(`${PROBLEM_BASE}/hold-expired`);
        expect(['expired', 'on_hold']).toContain(status);
        expect((await send('GET', bookingPath(h.Reference))).body.Status).toBe('expired');
      }
    }
    for (let i = 0; i < holds.length; i++) expect([201, 409]).toContain(results[i * 2 + 1]!.status);
    await expireLapsedHolds({ pool: db.pool }, 1000);
    const ledger = await timeslotLedger(db.pool, slot.id);
    expect(ledger.booked).toBe(ledger.live);
    expect(ledger.booked).toBeLessThanOrEqual(20);
  });
});

describe('the sweeper', () => {
  it('marks lapsed holds expired, decrements the counter once, and writes one booking.expired each', async () => {
    const slot = await freshSlot(10);
    const lapsed = [await hold(slot, { Participants: 2 }), await hold(slot, { Participants: 3 })];
    const live = await hold(slot, { Participants: 1 });
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = ANY($1)`, [lapsed.map((h) => h.Reference)]);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 6, unexpired: 1 });

    expect((await expireLapsedHolds({ pool: db.pool }, 1000)).released).toBeGreaterThanOrEqual(2);
    expect((await expireLapsedHolds({ pool: db.pool }, 1000)).released).toBe(0);
    expect(await timeslotLedger(db.pool, slot.id)).toMatchObject({ booked: 1, live: 1, unexpired: 1 });
    for (const h of lapsed) {
      expect(await statusOf(h.Reference)).toBe('expired');
      expect(await eventCount(db.pool, h.Reference, 'booking.expired')).toBe(1);
    }
    expect(await statusOf(live.Reference)).toBe('on_hold');
    expect(await eventCount(db.pool, live.Reference, 'booking.expired')).toBe(0);
  });
});

describe('the partner wall', () => {
  it('another partner of the same account, or another account, can neither read, confirm, cancel nor sync the booking', async () => {
    const slot = await freshSlot();
    const held = await hold(slot);
    const confirmed = (await book(slot)).body.Reference as string;
    const partner = await createPartner(db.pool, op.account.id, 'Other OTA');
    const sameAccount = (await createApiKey(db.pool, op.account.id, { name: 'other', scopes: ['ota'], partnerId: partner.id })).secret;
    const otherAccount = await (await createTestAccount(db.pool)).keyWith(['ota']);
    for (const key of [sameAccount, otherAccount]) {
      for (const reference of [held.Reference, confirmed]) {
        expect((await send('GET', bookingPath(reference), undefined, key)).status).toBe(404);
        expect((await send('POST', bookingPath(reference, 'confirm'), {}, key)).status).toBe(404);
        expect((await send('POST', bookingPath(reference, 'cancel'), {}, key)).status).toBe(404);
      }
      const sync = await send('GET', '/api/v2/ota/partner/bookings?Limit=500', undefined, key);
      expect(sync.status).toBe(200);
      expect(sync.body.Bookings.map((b: { Reference: string }) => b.Reference)).not.toContain(held.Reference);
      expect(sync.body.Bookings.map((b: { Reference: string }) => b.Reference)).not.toContain(confirmed);
    }
    expect(await statusOf(held.Reference)).toBe('on_hold');
    expect(await statusOf(confirmed)).toBe('confirmed');
  });

  it("a second key of the same partner sees and changes the partner's bookings", async () => {
    const partner = await createPartner(db.pool, op.account.id, 'Rotating OTA');
    const first = (await createApiKey(db.pool, op.account.id, { name: 'first', scopes: ['ota'], partnerId: partner.id })).secret;
    const second = (await createApiKey(db.pool, op.account.id, { name: 'second', scopes: ['ota'], partnerId: partner.id })).secret;
    const slot = await freshSlot();
    const held = await hold(slot, {}, first);
    expect((await send('GET', bookingPath(held.Reference), undefined, second)).status).toBe(200);
    expect((await send('POST', bookingPath(held.Reference, 'confirm'), {}, second)).status).toBe(200);
    expect((await send('GET', bookingPath(held.Reference), undefined, op.ota)).status).toBe(404);
  });
});
