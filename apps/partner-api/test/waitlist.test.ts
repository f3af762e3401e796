// The waitlist on the booking page's API: joining a full timeslot (once per address), the offers of freed places to
// the earliest entries that fit (the booking worker's pass, offerFreedPlaces, run here as the worker runs it), the
// claim link's offer and its claim, expiry and pass-on, the race of an offer with ordinary bookers for one freed
// place (never oversold), and the walls: a token opens its own page's offer alone.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Pool } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createTestTimeslot, futureDate } from '@backbone/testkit';
import { cancelBooking, changeBooking, createBooking, issueMailManageTokens, offerFreedPlaces } from '@backbone/use-cases';
import { CUSTOMER, createShopOperator, shopClient, type ShopOperator } from './shop-support.js';
import { databaseFingerprint, PROBLEM_BASE, usePartnerApi } from './support.js';

const { db, server } = usePartnerApi();
let op: ShopOperator;
let shop: ReturnType<typeof shopClient>;
let days = 0;

beforeAll(async () => {
  op = await createShopOperator(db.pool);
  shop = shopClient(() => server.url, op.slug);
});

/** A timeslot of its own for each test, `capacity` places, with `booked` of them taken by confirmed online bookings of one place each. */
async function fullSlot(activity: Activity, capacity: number, booked = capacity) {
  const slot = await createTestTimeslot(db.pool, activity, { date: futureDate(30 + ++days, 'Europe/Berlin'), time: '10:00', capacity });
  const references: string[] = [];
  for (let i = 0; i < booked; i++) references.push(await book(db.pool, activity, slot, 1, `booker-${i}@example.com`));
  return { ...slot, references };
}

async function book(pool: Pool, activity: Activity, slot: { date: string; time: string }, participants: number, email: string): Promise<string> {
  const { value } = await createBooking(
    { pool },
    {
      accountId: op.account.id,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel: 'online',
      activityId: activity.activityId,
      date: slot.date,
      time: slot.time,
      participants,
      customer: { FirstName: 'Bo', LastName: 'Oker', Email: email },
      paymentReference: null,
      answers: undefined,
    },
  );
  return value.Reference;
}

const cancel = (reference: string) =>
  cancelBooking({ pool: db.pool }, { owner: { accountId: op.account.id, partnerId: null }, reference }, { Reason: 'Ill' }, { kind: 'system' });

const join = (slot: { date: string; time: string }, participants: number, email: string, extra: Record<string, unknown> = {}) =>
  shop.send('POST', '/waitlist', {
    ActivityID: op.activity.activityId,
    Date: slot.date,
    Time: slot.time,
    Participants: participants,
    Customer: { FirstName: 'Wait', LastName: 'Ing', Email: email },
    ...extra,
  });

interface EntryRow {
  id: number;
  email: string;
  state: string;
  reference: string | null;
}

async function entries(timeslotId: number): Promise<EntryRow[]> {
  const { rows } = await db.pool.query<EntryRow>(
    `SELECT w.id::int, w.email, w.state, b.reference FROM waitlist_entries w LEFT JOIN bookings b ON b.id = w.booking_id
      WHERE w.timeslot_id = $1 ORDER BY w.created_at, w.id`,
    [timeslotId],
  );
  return rows;
}

async function slotCounter(timeslotId: number): Promise<{ capacity: number; booked: number; live: number }> {
  const { rows } = await db.pool.query<{ capacity: number; booked: number; live: number }>(
    `SELECT t.capacity, t.booked,
            (SELECT coalesce(sum(participants), 0)::int FROM bookings b
              WHERE b.timeslot_id = t.id AND (b.status = 'confirmed' OR (b.status = 'on_hold' AND b.expires_at > now()))) AS live
       FROM timeslots t WHERE t.id = $1`,
    [timeslotId],
  );
  return rows[0]!;
}

/** The offer e-mail's row of an entry: its claim path carries the mark the mail worker puts a token in place of. */
async function offerMail(entryId: number): Promise<{ to_address: string; data: Record<string, unknown>; account_id: string; booking_id: string }> {
  const { rows } = await db.pool.query<{ to_address: string; data: Record<string, unknown>; account_id: string; booking_id: string }>(
    `SELECT to_address, data, account_id, booking_id FROM mail_messages WHERE kind = 'waitlist-offer' AND data->>'WaitlistID' = $1`,
    [String(entryId)],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** The token of the claim link the mail worker sends for this offer: minted for the held booking as it does (issueMailManageTokens). */
const tokenOf = async (mail: { account_id: string; booking_id: string }) =>
  (await issueMailManageTokens(db.pool, [{ accountId: mail.account_id, bookingId: Number(mail.booking_id) }]))[0]!;

describe('joining', () => {
  it('takes a party on a full timeslot, and the same address again is the same entry', async () => {
    const slot = await fullSlot(op.activity, 2);
    const first = await join(slot, 2, 'wait@example.com');
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ Date: slot.date, Time: slot.time, Participants: 2, Position: 1, State: 'waiting' });
    const second = await join(slot, 1, 'other@example.com');
    expect(second.body.Position).toBe(2);
    // Case does not make another address.
    const again = await join(slot, 2, 'WAIT@example.com');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ Position: 1, State: 'waiting' });
    expect((await entries(slot.id)).map((e) => e.email)).toEqual(['wait@example.com', 'other@example.com']);
  });

  it('refuses a party the timeslot has places for, a closed or missing timeslot and bad input, storing nothing', async () => {
    const slot = await fullSlot(op.activity, 4, 2);
    const before = await databaseFingerprint(db.pool);
    const roomy = await join(slot, 2, 'roomy@example.com');
    expect(roomy.status).toBe(409);
    expect(roomy.body).toMatchObject({ type: `${PROBLEM_BASE}/places-available`, Available: 2 });
    // Three do not fit in the two places left: they may wait.
    const missing = await join({ date: slot.date, time: '23:45' }, 1, 'late@example.com');
    expect(missing.status).toBe(409);
    expect(missing.body.type).toBe(`${PROBLEM_BASE}/timeslot-unavailable`);
    for (const bad of [
      { Customer: { FirstName: 'A', LastName: 'B', Email: 'not-an-address' } },
      { Customer: { FirstName: 'A', LastName: 'B' } },
      { Participants: 0 },
      { Participants: 7 },
      { Website: 'http://spam.example' },
    ]) {
      const refused = await join(slot, 3, 'bad@example.com', bad);
      expect(refused.status, JSON.stringify(bad)).toBe(422);
      expect(refused.headers.get('content-type')).toContain('application/problem+json');
    }
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    expect(await entries(slot.id)).toEqual([]);
    expect((await join(slot, 3, 'three@example.com')).status).toBe(201);
  });
});

describe('offers', () => {
  it('offers freed places to the earliest entries that fit, in order, and the claim link books them', async () => {
    const slot = await fullSlot(op.activity, 4);
    await join(slot, 3, 'three@example.com');
    await join(slot, 2, 'two@example.com');
    await join(slot, 1, 'one@example.com');
    await cancel(slot.references[0]!);
    await cancel(slot.references[1]!);

    await offerFreedPlaces({ pool: db.pool }, 100);
    // Two places: the party of three does not fit and keeps its place; the two behind it get them.
    const [three, two, one] = await entries(slot.id);
    expect([three!.state, two!.state, one!.state]).toEqual(['waiting', 'offered', 'waiting']);
    expect(await slotCounter(slot.id)).toEqual({ capacity: 4, booked: 4, live: 4 });

    const mail = await offerMail(two!.id);
    expect(mail.to_address).toBe('two@example.com');
    expect(mail.data).toMatchObject({ WaitlistID: String(two!.id), MultiBookingID: two!.reference });
    // No token in the outbox: the mail worker mints one as it sends the offer (only its hash kept).
    expect(mail.data.ClaimPath).toBe(`/book/${op.slug}/claim/{manage-token}`);
    const token = await tokenOf(mail);
    const { rows: clear } = await db.pool.query(`SELECT 1 FROM booking_tokens WHERE encode(token_hash, 'escape') LIKE '%' || $1 || '%'`, [token]);
    expect(clear).toHaveLength(0);

    const offer = await shop.send('GET', `/waitlist-offers/${token}`);
    expect(offer.status).toBe(200);
    expect(offer.body).toMatchObject({
      State: 'offered',
      Booking: { Reference: two!.reference, Status: 'on_hold', Participants: 2, Customer: { FirstName: 'Wait', Email: 'two@example.com' } },
    });
    const minutes = (Date.parse(offer.body.Booking.ExpiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(28);
    expect(minutes).toBeLessThanOrEqual(30);

    const claimed = await shop.send('POST', `/waitlist-offers/${token}/claim`, { Customer: { ...CUSTOMER, Email: 'two@example.com' } });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ Reference: two!.reference, Status: 'confirmed', Customer: { FirstName: 'Ana' } });
    expect((await entries(slot.id))[1]!.state).toBe('claimed');
    // Claiming again answers the same booking.
    expect((await shop.send('POST', `/waitlist-offers/${token}/claim`, { Customer: CUSTOMER })).body.Status).toBe('confirmed');
    expect((await shop.send('GET', `/waitlist-offers/${token}`)).body.State).toBe('claimed');
    expect(await slotCounter(slot.id)).toEqual({ capacity: 4, booked: 4, live: 4 });
  });

  it('expires an offer not claimed in time and passes its places on to the next entry', async () => {
    const slot = await fullSlot(op.activity, 2);
    await join(slot, 2, 'first@example.com');
    await join(slot, 2, 'second@example.com');
    await cancel(slot.references[0]!);
    await cancel(slot.references[1]!);
    await offerFreedPlaces({ pool: db.pool }, 100);
    const [first] = await entries(slot.id);
    expect(first!.state).toBe('offered');
    const token = await tokenOf(await offerMail(first!.id));

    // The offer's time runs out (its hold's expiry moved to the past: the clock of the database is the only one asked).
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [first!.reference]);
    await offerFreedPlaces({ pool: db.pool }, 100);
    const [expired, next] = await entries(slot.id);
    expect(expired!.state).toBe('expired');
    expect(next!.state).toBe('offered');
    expect(await slotCounter(slot.id)).toEqual({ capacity: 2, booked: 2, live: 2 });
    const late = await shop.send('POST', `/waitlist-offers/${token}/claim`, { Customer: CUSTOMER });
    expect(late.status).toBe(409);
    expect(late.body.type).toBe(`${PROBLEM_BASE}/hold-expired`);
    expect((await shop.send('GET', `/waitlist-offers/${token}`)).body.State).toBe('expired');
  });

  it('offers places freed by a smaller party and by a booking moved away', async () => {
    const slot = await fullSlot(op.activity, 4, 0);
    const pair = await book(db.pool, op.activity, slot, 2, 'pair@example.com');
    const mover = await book(db.pool, op.activity, slot, 2, 'mover@example.com');
    await join(slot, 1, 'smaller@example.com');
    await join(slot, 2, 'moved@example.com');
    const operator = { kind: 'operator' as const, userId: null, apiKeyId: null };
    const ref = (reference: string) => ({ owner: { accountId: op.account.id, partnerId: null }, reference });
    await changeBooking({ pool: db.pool }, ref(pair), { participants: 1 }, operator);
    await offerFreedPlaces({ pool: db.pool }, 100);
    expect((await entries(slot.id)).map((e) => e.state)).toEqual(['offered', 'waiting']);
    const elsewhere = await createTestTimeslot(db.pool, op.activity, { date: slot.date, time: '16:00', capacity: 10 });
    await changeBooking({ pool: db.pool }, ref(mover), { move: { date: elsewhere.date, time: elsewhere.time } }, operator);
    await offerFreedPlaces({ pool: db.pool }, 100);
    expect((await entries(slot.id)).map((e) => e.state)).toEqual(['offered', 'offered']);
    expect(await slotCounter(slot.id)).toEqual({ capacity: 4, booked: 4, live: 4 });
  });

  it('offers places freed by a capacity raised, and never twice to one entry', async () => {
    const slot = await fullSlot(op.activity, 2);
    await join(slot, 1, 'raise@example.com');
    await db.pool.query(`UPDATE timeslots SET capacity = 3 WHERE id = $1`, [slot.id]);
    await Promise.all([offerFreedPlaces({ pool: db.pool }, 100), offerFreedPlaces({ pool: db.pool }, 100)]);
    expect((await entries(slot.id)).map((e) => e.state)).toEqual(['offered']);
    const { rows } = await db.pool.query(`SELECT 1 FROM mail_messages WHERE kind = 'waitlist-offer' AND data->>'WaitlistID' = $1`, [
      String((await entries(slot.id))[0]!.id),
    ]);
    expect(rows).toHaveLength(1);
    expect(await slotCounter(slot.id)).toEqual({ capacity: 3, booked: 3, live: 3 });
  });

  it('never oversells a freed place that an offer and thirty bookers race for', async () => {
    const slot = await fullSlot(op.activity, 5);
    for (let i = 0; i < 3; i++) await join(slot, 1, `racer-wait-${i}@example.com`);
    await cancel(slot.references[0]!);
    const racers = Array.from({ length: 30 }, () => shop.hold(op.activity, slot, 1));
    const [holds, ...passes] = await Promise.all([Promise.all(racers), offerFreedPlaces({ pool: db.pool }, 100), offerFreedPlaces({ pool: db.pool }, 100)]);
    const won = holds.filter((h) => h.status === 201).length;
    const offered = passes.reduce((sum, pass) => sum + pass.offered, 0);
    expect(holds.every((h) => h.status === 201 || h.status === 409 || h.status === 429)).toBe(true);
    expect(won + offered).toBe(1);
    expect(await slotCounter(slot.id)).toEqual({ capacity: 5, booked: 5, live: 5 });
    expect((await entries(slot.id)).filter((e) => e.state === 'offered')).toHaveLength(offered);
  });
});

describe('walls', () => {
  it("opens an offer only with its own page's token, and no ordinary hold as an offer", async () => {
    const slot = await fullSlot(op.activity, 1);
    await join(slot, 1, 'walled@example.com');
    await cancel(slot.references[0]!);
    await offerFreedPlaces({ pool: db.pool }, 100);
    const token = await tokenOf(await offerMail((await entries(slot.id))[0]!.id));

    const other = await createShopOperator(db.pool);
    const otherShop = shopClient(() => server.url, other.slug);
    expect((await otherShop.send('GET', `/waitlist-offers/${token}`)).status).toBe(404);
    expect((await otherShop.send('POST', `/waitlist-offers/${token}/claim`, { Customer: CUSTOMER })).status).toBe(404);
    // Joining the other page's waitlist with this page's activity: not an activity of that page.
    const foreign = await otherShop.send('POST', '/waitlist', {
      ActivityID: op.activity.activityId,
      Date: slot.date,
      Time: slot.time,
      Participants: 1,
      Customer: { FirstName: 'A', LastName: 'B', Email: 'ab@example.com' },
    });
    expect(foreign.status).toBe(422);

    const roomy = await createTestTimeslot(db.pool, op.activity, { date: futureDate(90, 'Europe/Berlin'), time: '12:00', capacity: 5 });
    const hold = await shop.hold(op.activity, roomy, 1);
    expect((await shop.send('GET', `/waitlist-offers/${hold.body.Token}`)).status).toBe(404);
    expect((await shop.send('GET', `/waitlist-offers/${'A'.repeat(43)}`)).status).toBe(404);
    expect((await shop.send('GET', '/waitlist-offers/short')).status).toBe(400);
  });
});
