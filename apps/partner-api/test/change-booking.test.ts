// PATCH /api/v2/ota/partner/booking/{Reference}: a partner moves, resizes and edits its live bookings. The places move
// with the same rule as a create (it fits or nothing changes, never oversold under races), each change sends
// booking.updated and is recorded with who made it, the cutoff closes changes as it closes cancels, the booking keeps
// the price it was sold at, and the partner wall holds.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestTimeslot, futureDate, request } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import {
  bookingBody,
  bookingPath,
  createOperator,
  databaseFingerprint,
  keepAliveClient,
  PROBLEM_BASE,
  timeslotLedger,
  usePartnerApi,
  type Operator,
} from './support.js';

const { db, server } = usePartnerApi({ poolSize: 30 });
const BOOKING = '/api/v2/ota/partner/booking';
let op: Operator;
let dayCounter = 20;

beforeAll(async () => {
  op = await createOperator(db.pool);
});

/** An activity of its own with timeslots on a date of their own, so tests never share a counter. */
async function activityWithSlots(capacities: Record<string, number>, overrides: Parameters<typeof createTestActivity>[2] = {}) {
  const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 10, ...overrides });
  const date = futureDate(dayCounter++);
  const slots: Record<string, { id: number; date: string; time: string }> = {};
  for (const [time, capacity] of Object.entries(capacities)) slots[time] = await createTestTimeslot(db.pool, activity, { date, time, capacity });
  return { activity, date, slots };
}

const book = async (activity: Activity, slot: { date: string; time: string }, overrides: Record<string, unknown> = {}, key = op.ota) => {
  const res = await request(server.url, 'POST', BOOKING, { key, body: bookingBody(activity, slot, overrides) });
  expect(res.status, res.text).toBe(201);
  return res.body.Reference as string;
};
const change = (reference: string, body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  request(server.url, 'PATCH', bookingPath(reference), { key: options.key ?? op.ota, body, headers: options.headers ?? {} });

async function historyOf(reference: string) {
  const { rows } = await db.pool.query(
    `SELECT h.action, h.actor_kind, h.partner_id, h.api_key_id, h.changes FROM booking_history h JOIN bookings b ON b.id = h.booking_id
      WHERE b.reference = $1 ORDER BY h.id`,
    [reference],
  );
  return rows;
}

async function updatedEvents(reference: string) {
  const { rows } = await db.pool.query(`SELECT payload FROM outbox_events WHERE type = 'booking.updated' AND payload->>'Reference' = $1 ORDER BY id`, [
    reference,
  ]);
  return rows.map((r: { payload: Record<string, unknown> }) => r.payload);
}

describe('moving a booking', () => {
  it('moves it to another timeslot of its activity: the places leave one and take the other, with booking.updated and a history row', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 6, '11:00': 6 });
    const reference = await book(activity, slots['09:00']!, { Participants: 3 });
    const moved = await change(reference, { Date: date, Time: '11:00' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ Reference: reference, Status: 'confirmed', Date: date, Time: '11:00', Participants: 3 });
    expect(await timeslotLedger(db.pool, slots['09:00']!.id)).toMatchObject({ booked: 0, live: 0 });
    expect(await timeslotLedger(db.pool, slots['11:00']!.id)).toMatchObject({ booked: 3, live: 3 });
    const [event, ...more] = await updatedEvents(reference);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      Reference: reference,
      Status: 'confirmed',
      ActivityID: activity.activityId,
      Date: date,
      Time: '11:00',
      Participants: 3,
      Changed: ['Time'],
      Previous: { ActivityID: activity.activityId, Date: date, Time: '09:00', Participants: 3 },
      PartnerID: expect.any(String),
      OccurredAt: expect.any(Number),
    });
    const history = await historyOf(reference);
    expect(history).toEqual([
      {
        action: 'rescheduled',
        actor_kind: 'partner',
        partner_id: event!.PartnerID,
        api_key_id: expect.any(String),
        changes: { Time: { From: '09:00', To: '11:00' } },
      },
    ]);
  });

  it('keeps a hold on hold, with its expiry, when it moves', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 4, '10:00': 4 });
    const held = await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(activity, slots['09:00']!, { Hold: { Minutes: 20 } }) });
    const moved = await change(held.body.Reference as string, { Date: date, Time: '10:00', Participants: 2 });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ Status: 'on_hold', ExpiresAt: held.body.ExpiresAt, Time: '10:00', Participants: 2 });
    expect(await timeslotLedger(db.pool, slots['10:00']!.id)).toMatchObject({ booked: 2, live: 2 });
  });

  it('refuses a move into a slot without room with 409 and the places left, and changes nothing', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 6, '11:00': 3 });
    await book(activity, slots['11:00']!, { Participants: 2 });
    const reference = await book(activity, slots['09:00']!, { Participants: 2 });
    const before = await databaseFingerprint(db.pool);
    const refused = await change(reference, { Date: date, Time: '11:00' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 1 });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    expect(await historyOf(reference)).toEqual([]);
  });

  it('refuses a move to a closed, started or missing timeslot with 409 /timeslot-unavailable', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 6, '10:00': 6, '11:00': 6 });
    await db.pool.query(`UPDATE timeslots SET status = 'closed' WHERE id = $1`, [slots['10:00']!.id]);
    await db.pool.query(`UPDATE timeslots SET starts_at = now() - interval '1 minute' WHERE id = $1`, [slots['11:00']!.id]);
    const reference = await book(activity, slots['09:00']!);
    const before = await databaseFingerprint(db.pool);
    for (const time of ['10:00', '11:00', '12:00']) {
      const refused = await change(reference, { Date: date, Time: time });
      expect(refused.status, time).toBe(409);
      expect(refused.body.type).toBe(`${PROBLEM_BASE}/timeslot-unavailable`);
    }
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('takes the places of lapsed holds in the target, as a create would', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 6, '10:00': 2 });
    const hold = await request(server.url, 'POST', BOOKING, {
      key: op.ota,
      body: bookingBody(activity, slots['10:00']!, { Participants: 2, Hold: { Minutes: 5 } }),
    });
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [hold.body.Reference]);
    const reference = await book(activity, slots['09:00']!, { Participants: 2 });
    const moved = await change(reference, { Date: date, Time: '10:00' });
    expect(moved.status, moved.text).toBe(200);
    expect(await timeslotLedger(db.pool, slots['10:00']!.id)).toMatchObject({ booked: 2, live: 2, unexpired: 2 });
    const { rows } = await db.pool.query(`SELECT status FROM bookings WHERE reference = $1`, [hold.body.Reference]);
    expect(rows[0].status).toBe('expired');
  });
});

describe('party size, customer and answers', () => {
  it('grows the party up to the last place, refuses one more with 409, and frees places at once when it shrinks', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 5 });
    await book(activity, slots['09:00']!, { Participants: 2 });
    const reference = await book(activity, slots['09:00']!, { Participants: 1 });
    expect((await change(reference, { Participants: 3 })).status).toBe(200);
    expect(await timeslotLedger(db.pool, slots['09:00']!.id)).toMatchObject({ booked: 5, live: 5 });
    const before = await databaseFingerprint(db.pool);
    const over = await change(reference, { Participants: 4 });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 0 });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    const shrunk = await change(reference, { Participants: 1 });
    expect(shrunk.body.Participants).toBe(1);
    expect(await timeslotLedger(db.pool, slots['09:00']!.id)).toMatchObject({ booked: 3, live: 3 });
    // The freed places are bookable at once.
    await book(activity, slots['09:00']!, { Participants: 2 });
    expect(await timeslotLedger(db.pool, slots['09:00']!.id)).toMatchObject({ booked: 5, live: 5 });
    expect((await updatedEvents(reference)).map((e) => e.Changed)).toEqual([['Participants'], ['Participants']]);
  });

  it("keeps the unit price it was sold at when the activity's price changes, and totals the new party", async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 }, { priceMinor: 4500, currency: 'EUR' });
    const created = await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(activity, slots['09:00']!, { Participants: 2 }) });
    expect(created.body.Price).toEqual({ Currency: 'EUR', UnitAmount: 4500, TotalAmount: 9000, AtSale: true });
    await db.pool.query(`UPDATE activities SET price_minor = 9900 WHERE id = $1`, [activity.id]);
    const changed = await change(created.body.Reference as string, { Participants: 3 });
    expect(changed.body.Price).toEqual({ Currency: 'EUR', UnitAmount: 4500, TotalAmount: 13500, AtSale: true });
    const read = await request(server.url, 'GET', bookingPath(created.body.Reference as string), { key: op.ota });
    expect(read.body.Price).toEqual(changed.body.Price);
  });

  it('replaces the customer members sent and keeps the others; records the change', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const reference = await book(activity, slots['09:00']!);
    const changed = await change(reference, { Customer: { Phone: '+351 912 345 678', LastName: 'Byron' } });
    expect(changed.status).toBe(200);
    expect(changed.body.Customer).toEqual({ FirstName: 'Ada', LastName: 'Byron', Email: 'ada@example.com', Phone: '+351 912 345 678' });
    expect((await historyOf(reference))[0]).toMatchObject({
      action: 'edited',
      changes: { Customer: { From: { LastName: 'Lovelace' }, To: { LastName: 'Byron' } } },
    });
  });

  it('answers the booking as it is, and records nothing, when nothing changes', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 8 });
    const reference = await book(activity, slots['09:00']!, { Participants: 2 });
    const before = await databaseFingerprint(db.pool);
    const same = await change(reference, { Date: date, Time: '09:00', Participants: 2, Customer: { FirstName: 'Ada' } });
    expect(same.status).toBe(200);
    expect(same.body).toMatchObject({ Reference: reference, Participants: 2 });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});

describe('when a booking may change', () => {
  it('closes at the cutoff minute: open a minute before, 409 /change-window-closed at it', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    await db.pool.query('UPDATE activities SET cancellation_cutoff_minutes = 120 WHERE id = $1', [activity.id]);
    const reference = await book(activity, slots['09:00']!);
    await db.pool.query(`UPDATE timeslots SET starts_at = now() + interval '121 minutes' WHERE id = $1`, [slots['09:00']!.id]);
    expect((await change(reference, { Participants: 2 })).status).toBe(200);
    await db.pool.query(`UPDATE timeslots SET starts_at = now() + interval '120 minutes' WHERE id = $1`, [slots['09:00']!.id]);
    const before = await databaseFingerprint(db.pool);
    const closed = await change(reference, { Participants: 3 });
    expect(closed.status).toBe(409);
    expect(closed.body.type).toBe(`${PROBLEM_BASE}/change-window-closed`);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('refuses a cancelled booking and a lapsed hold with 409 /invalid-transition', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const cancelled = await book(activity, slots['09:00']!);
    await request(server.url, 'POST', bookingPath(cancelled, 'cancel'), { key: op.ota });
    const hold = await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(activity, slots['09:00']!, { Hold: { Minutes: 5 } }) });
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [hold.body.Reference]);
    for (const [reference, status] of [
      [cancelled, 'cancelled'],
      [hold.body.Reference as string, 'expired'],
    ] as const) {
      const refused = await change(reference, { Participants: 2 });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/invalid-transition`, Status: status });
    }
  });

  it("answers 404 for another partner's booking and another account's, and changes nothing", async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const reference = await book(activity, slots['09:00']!);
    const otherPartner = await op.keyWith(['ota']);
    const neighbour = await createOperator(db.pool);
    const before = await databaseFingerprint(db.pool);
    for (const key of [otherPartner, neighbour.ota]) {
      const refused = await change(reference, { Participants: 2 }, { key });
      expect(refused.status).toBe(404);
      expect(refused.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    }
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});

describe('bad input', () => {
  const cases: Array<[string, unknown, number]> = [
    ['an empty object', {}, 422],
    ['Date without Time', { Date: '2031-01-01' }, 422],
    ['Time without Date', { Time: '10:00' }, 422],
    ['an unknown member', { Participants: 2, Hold: { Minutes: 5 } }, 422],
    ['ActivityID (moves stay within the activity)', { ActivityID: '00000000-0000-4000-8000-000000000000' }, 422],
    ['Participants 0', { Participants: 0 }, 422],
    ['Participants as a string', { Participants: '2' }, 422],
    ["Participants over the activity's maximum", { Participants: 11 }, 422],
    ['a malformed date', { Date: '2031-13-01', Time: '10:00' }, 422],
    ['a malformed time', { Date: '2031-01-01', Time: '25:00' }, 422],
    ['a customer e-mail that is not one', { Customer: { Email: 'not-an-address' } }, 422],
    ['an unknown customer member', { Customer: { Nickname: 'x' } }, 422],
    ['answers that are not a list', { Answers: { QuestionID: 1 } }, 422],
    ['an answer to no question of the activity', { Answers: [{ QuestionID: 999999, Value: 'x' }] }, 422],
    ['a JSON array', [], 422],
    ['null', null, 422],
  ];
  it.each(cases)('refuses %s and changes nothing', async (_label, body, status) => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const reference = await book(activity, slots['09:00']!);
    const before = await databaseFingerprint(db.pool);
    const refused = await change(reference, body);
    expect(refused.status, refused.text).toBe(status);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('refuses a malformed reference with 400, a body that is not JSON with 415, broken JSON with 400', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const reference = await book(activity, slots['09:00']!);
    expect((await change('NOT-A-REF!', { Participants: 2 })).status).toBe(400);
    const text = await request(server.url, 'PATCH', bookingPath(reference), {
      key: op.ota,
      rawBody: 'Participants=2',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    const broken = await request(server.url, 'PATCH', bookingPath(reference), {
      key: op.ota,
      rawBody: '{"Participants":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
  });
});

describe('Idempotency-Key on a change', () => {
  it('replays the change for a retry, and refuses the key on another booking', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const first = await book(activity, slots['09:00']!);
    const second = await book(activity, slots['09:00']!);
    const headers = { 'idempotency-key': `change-${first}` };
    const changed = await change(first, { Participants: 3 }, { headers });
    const again = await change(first, { Participants: 3 }, { headers });
    expect(again.text).toBe(changed.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await timeslotLedger(db.pool, slots['09:00']!.id)).toMatchObject({ booked: 4, live: 4 });
    const other = await change(second, { Participants: 3 }, { headers });
    expect(other.status).toBe(422);
    expect(other.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
    expect(await updatedEvents(first)).toHaveLength(1);
    expect(await updatedEvents(second)).toHaveLength(0);
  });
});

describe('races', () => {
  it('never oversells a small slot that moves and new bookings race into; the old slots are freed exactly once', async () => {
    const { activity, date, slots } = await activityWithSlots({ '08:00': 10, '09:00': 10, '12:00': 5 });
    const movers: string[] = [];
    for (let i = 0; i < 10; i++) movers.push(await book(activity, slots[i % 2 === 0 ? '08:00' : '09:00']!, { Participants: 1 }));
    const client = keepAliveClient(server.url, 20);
    try {
      const moves = movers.map((reference) => client.send('PATCH', bookingPath(reference), { key: op.ota, body: { Date: date, Time: '12:00' } }));
      const creates = Array.from({ length: 10 }, () => client.send('POST', BOOKING, { key: op.ota, body: bookingBody(activity, slots['12:00']!) }));
      const answers = await Promise.all([...moves, ...creates]);
      for (const answer of answers) expect([200, 201, 409]).toContain(answer.status);
      const won = answers.filter((a) => a.status === 200 || a.status === 201).length;
      expect(won).toBe(5);
      const movedIn = (await Promise.all(moves)).filter((a) => a.status === 200).length;
      for (const time of ['08:00', '09:00', '12:00']) {
        const ledger = await timeslotLedger(db.pool, slots[time]!.id);
        expect(ledger.booked, time).toBe(ledger.live);
      }
      expect((await timeslotLedger(db.pool, slots['12:00']!.id)).booked).toBe(5);
      const left = (await timeslotLedger(db.pool, slots['08:00']!.id)).booked + (await timeslotLedger(db.pool, slots['09:00']!.id)).booked;
      expect(left).toBe(10 - movedIn);
    } finally {
      client.close();
    }
  });

  it('swaps two bookings between two slots in opposite directions at once without a deadlock', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 8, '10:00': 8 });
    const pairs: Array<[string, string]> = [];
    for (let i = 0; i < 4; i++) pairs.push([await book(activity, slots['09:00']!), await book(activity, slots['10:00']!)]);
    const answers = await Promise.all(pairs.flatMap(([a, b]) => [change(a, { Date: date, Time: '10:00' }), change(b, { Date: date, Time: '09:00' })]));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(await timeslotLedger(db.pool, slots['09:00']!.id)).toMatchObject({ booked: 4, live: 4 });
    expect(await timeslotLedger(db.pool, slots['10:00']!.id)).toMatchObject({ booked: 4, live: 4 });
  });
});

describe('history', () => {
  it('records a confirm and a cancel with the partner and key that made them, and the reason', async () => {
    const { activity, slots } = await activityWithSlots({ '09:00': 8 });
    const held = await request(server.url, 'POST', BOOKING, { key: op.ota, body: bookingBody(activity, slots['09:00']!, { Hold: { Minutes: 30 } }) });
    const reference = held.body.Reference as string;
    expect((await request(server.url, 'POST', bookingPath(reference, 'confirm'), { key: op.ota })).status).toBe(200);
    expect((await request(server.url, 'POST', bookingPath(reference, 'cancel'), { key: op.ota, body: { Reason: 'Traveller ill' } })).status).toBe(200);
    const keyId = (await db.pool.query(`SELECT api_key_id FROM bookings WHERE reference = $1`, [reference])).rows[0].api_key_id as string;
    const { rows } = await db.pool.query(
      `SELECT h.action, h.actor_kind, h.api_key_id, h.reason, h.partner_id = b.partner_id AS own_partner
         FROM booking_history h JOIN bookings b ON b.id = h.booking_id WHERE b.reference = $1 ORDER BY h.id`,
      [reference],
    );
    expect(rows).toEqual([
      { action: 'confirmed', actor_kind: 'partner', api_key_id: keyId, reason: null, own_partner: true },
      { action: 'cancelled', actor_kind: 'partner', api_key_id: keyId, reason: 'Traveller ill', own_partner: true },
    ]);
  });
});

describe('sync', () => {
  it('serves a changed booking again, at its new state', async () => {
    const { activity, date, slots } = await activityWithSlots({ '09:00': 8, '15:00': 8 });
    const reference = await book(activity, slots['09:00']!);
    const pass = await request(server.url, 'GET', '/api/v2/ota/partner/bookings?Limit=500', { key: op.ota });
    await change(reference, { Date: date, Time: '15:00' });
    // The feed serves a change once every older transaction of the database has ended (its xmin): another test file's
    // open transaction holds it back for a while, so this polls as a partner would, not a fixed number of times at once.
    let cursor = pass.body.Resume as string;
    await expect
      .poll(
        async () => {
          const next = await request(server.url, 'GET', `/api/v2/ota/partner/bookings?Cursor=${cursor}`, { key: op.ota });
          cursor = next.body.Resume as string;
          return (next.body.Bookings as Array<{ Reference: string; Time: string }>).find((b) => b.Reference === reference);
        },
        { interval: 100 },
      )
      .toMatchObject({ Time: '15:00' });
  });
});
