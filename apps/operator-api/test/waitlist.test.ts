// The console's waitlist operations: a timeslot's waitlist with positions, party, contact and offer state; staff add a
// caller (the same address once), offer by hand (never more than is free), remove (an offer's places let go), and book
// by hand (a waiting entry at once, an offered one by confirming its hold). Bad input is a problem that changes nothing;
// another account's timeslot or entry is a 404.
import { beforeAll, describe, expect, it } from 'vitest';
import type { WaitlistEntry } from '@backbone/contracts';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();
let operator: Operator;
let staff: SessionClient;
let days = 0;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
});

/** A timeslot of its own, `capacity` places all taken by bookings of one place each. */
async function fullSlot(capacity: number) {
  const date = dayFromNow(10 + ++days);
  const slot = await createSlot(db.pool, operator, date, '09:30', capacity);
  const references: string[] = [];
  for (let i = 0; i < capacity; i++) references.push((await book(db.pool, operator, { date, time: '09:30' }, { email: `b${i}@example.com` })).Reference);
  return { ...slot, references };
}

const caller = (email: string, participants = 1, phone?: string) => ({
  Participants: participants,
  Customer: { FirstName: 'Rita', LastName: 'Caller', Email: email, ...(phone ? { Phone: phone } : {}) },
});

const add = (timeslotId: number, body: unknown) => staff.send('POST', `/api/v2/operator/timeslots/${timeslotId}/waitlist`, body);
const list = async (timeslotId: number) => (await staff.send('GET', `/api/v2/operator/timeslots/${timeslotId}/waitlist`)).body.Entries as WaitlistEntry[];

async function timeslotBooked(id: number): Promise<number> {
  const { rows } = await db.pool.query<{ booked: number }>(`SELECT booked FROM timeslots WHERE id = $1`, [id]);
  return rows[0]!.booked;
}

describe("a timeslot's waitlist", () => {
  it('lists the queue in order with position, party, contact and state; the same address added again is one entry', async () => {
    const slot = await fullSlot(2);
    const first = await add(slot.id, caller('first@example.com', 2, '+351 912 345 678'));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      TimeslotID: slot.id,
      Date: slot.date,
      Time: '09:30',
      Position: 1,
      Participants: 2,
      Customer: { FirstName: 'Rita', LastName: 'Caller', Email: 'first@example.com', Phone: '+351 912 345 678' },
      Channel: 'pos',
      State: 'waiting',
      BookingReference: null,
      OfferExpiresAt: null,
    });
    expect((await add(slot.id, caller('second@example.com'))).body.Position).toBe(2);
    const again = await add(slot.id, caller('First@Example.com', 1));
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ WaitlistID: first.body.WaitlistID, Participants: 2 });
    const entries = await list(slot.id);
    expect(entries.map((e) => [e.Customer.Email, e.Position, e.State])).toEqual([
      ['first@example.com', 1, 'waiting'],
      ['second@example.com', 2, 'waiting'],
    ]);
  });

  it('offers by hand only what is free, and the offer holds the places', async () => {
    const slot = await fullSlot(2);
    const entry = (await add(slot.id, caller('hand@example.com', 1))).body;
    const full = await staff.send('POST', `/api/v2/operator/waitlist/${entry.WaitlistID}/offer`);
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 0 });
    expect((await list(slot.id))[0]!.State).toBe('waiting');

    await staff.send('POST', `/api/v2/operator/bookings/${slot.references[0]}/cancel`, { Reason: 'Ill' });
    const offered = await staff.send('POST', `/api/v2/operator/waitlist/${entry.WaitlistID}/offer`);
    expect(offered.status).toBe(200);
    expect(offered.body).toMatchObject({ State: 'offered', Position: null, BookingReference: expect.stringMatching(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/) });
    expect(Date.parse(offered.body.OfferExpiresAt) - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(await timeslotBooked(slot.id)).toBe(2);
    const { rows } = await db.pool.query(`SELECT to_address FROM mail_messages WHERE kind = 'waitlist-offer' AND data->>'WaitlistID' = $1`, [
      String(entry.WaitlistID),
    ]);
    expect(rows).toEqual([{ to_address: 'hand@example.com' }]);
    // Again: the same offer, nothing more held.
    expect((await staff.send('POST', `/api/v2/operator/waitlist/${entry.WaitlistID}/offer`)).body.BookingReference).toBe(offered.body.BookingReference);
    expect(await timeslotBooked(slot.id)).toBe(2);
  });

  it("removes an entry, letting an offer's places go", async () => {
    const slot = await fullSlot(1);
    const waiting = (await add(slot.id, caller('waiting@example.com'))).body;
    const offeredEntry = (await add(slot.id, caller('offered@example.com'))).body;
    await staff.send('POST', `/api/v2/operator/bookings/${slot.references[0]}/cancel`, {});
    await staff.send('POST', `/api/v2/operator/waitlist/${offeredEntry.WaitlistID}/offer`);
    expect(await timeslotBooked(slot.id)).toBe(1);

    const removed = await staff.send('DELETE', `/api/v2/operator/waitlist/${offeredEntry.WaitlistID}`);
    expect(removed.status).toBe(200);
    expect(removed.body.State).toBe('removed');
    expect(await timeslotBooked(slot.id)).toBe(0);
    const { rows } = await db.pool.query(`SELECT status FROM bookings WHERE reference = $1`, [removed.body.BookingReference]);
    expect(rows).toEqual([{ status: 'cancelled' }]);
    expect((await staff.send('DELETE', `/api/v2/operator/waitlist/${offeredEntry.WaitlistID}`)).body.State).toBe('removed');
    expect((await staff.send('DELETE', `/api/v2/operator/waitlist/${waiting.WaitlistID}`)).body.State).toBe('removed');
    expect((await list(slot.id)).map((e) => e.State)).toEqual(['removed', 'removed']);
  });

  it('books a waiting entry at once and an offered one by confirming its hold, never past capacity', async () => {
    const slot = await fullSlot(2);
    const waiting = (await add(slot.id, caller('walkin@example.com'))).body;
    const offeredEntry = (await add(slot.id, caller('offer@example.com'))).body;
    const refused = await staff.send('POST', `/api/v2/operator/waitlist/${waiting.WaitlistID}/book`);
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe(`${PROBLEM_BASE}/insufficient-capacity`);

    await staff.send('POST', `/api/v2/operator/bookings/${slot.references[0]}/cancel`, {});
    await staff.send('POST', `/api/v2/operator/waitlist/${offeredEntry.WaitlistID}/offer`);
    const bookedOffer = await staff.send('POST', `/api/v2/operator/waitlist/${offeredEntry.WaitlistID}/book`);
    expect(bookedOffer.status).toBe(200);
    expect(bookedOffer.body).toMatchObject({ State: 'claimed', OfferExpiresAt: null });
    const detail = await staff.send('GET', `/api/v2/operator/bookings/${bookedOffer.body.BookingReference}`);
    expect(detail.body).toMatchObject({ Status: 'confirmed', Customer: { Email: 'offer@example.com' } });
    expect(await timeslotBooked(slot.id)).toBe(2);

    await staff.send('POST', `/api/v2/operator/bookings/${slot.references[1]}/cancel`, {});
    const bookedWaiting = await staff.send('POST', `/api/v2/operator/waitlist/${waiting.WaitlistID}/book`);
    expect(bookedWaiting.status).toBe(200);
    expect(bookedWaiting.body.State).toBe('claimed');
    expect((await staff.send('GET', `/api/v2/operator/bookings/${bookedWaiting.body.BookingReference}`)).body).toMatchObject({
      Status: 'confirmed',
      Channel: 'pos',
    });
    expect(await timeslotBooked(slot.id)).toBe(2);
    // A claimed entry is not removed (its booking is cancelled as a booking), nor offered again.
    expect((await staff.send('DELETE', `/api/v2/operator/waitlist/${waiting.WaitlistID}`)).body.type).toBe(`${PROBLEM_BASE}/invalid-transition`);
    expect((await staff.send('POST', `/api/v2/operator/waitlist/${waiting.WaitlistID}/offer`)).status).toBe(409);
  });

  it('refuses bad input and a timeslot with room with a problem, changing nothing', async () => {
    const slot = await fullSlot(1);
    const roomy = await createSlot(db.pool, operator, dayFromNow(40), '11:00', 5);
    for (const [timeslotId, body, status] of [
      [slot.id, { Participants: 1 }, 422],
      [slot.id, caller('bad address'), 422],
      [slot.id, { ...caller('x@example.com'), Participants: 0 }, 422],
      [slot.id, { ...caller('x@example.com'), Participants: 21 }, 422],
      [slot.id, { ...caller('x@example.com'), Customer: { FirstName: 'A\r\nBcc: evil@example.com', LastName: 'B', Email: 'x@example.com' } }, 422],
      [slot.id, { ...caller('x@example.com'), Extra: true }, 422],
      [roomy.id, caller('x@example.com'), 409],
    ] as const) {
      const answer = await add(timeslotId, body);
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await staff.send('GET', '/api/v2/operator/timeslots/abc/waitlist')).status).toBe(400);
    expect((await staff.send('POST', '/api/v2/operator/waitlist/0/offer')).status).toBe(400);
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM waitlist_entries WHERE timeslot_id = ANY($1::bigint[])`, [[slot.id, roomy.id]]);
    expect(rows[0].n).toBe(0);
  });
});

describe('tenant walls', () => {
  it("answers 404 for another account's timeslot and entries, and changes nothing of them", async () => {
    const other = await createOperator(db.pool);
    const date = dayFromNow(50);
    const theirSlot = await createSlot(db.pool, other, date, '12:00', 1);
    await book(db.pool, other, { date, time: '12:00' });
    const theirs = await signedIn(server.url, other.staff.email);
    const entry = (await theirs.send('POST', `/api/v2/operator/timeslots/${theirSlot.id}/waitlist`, caller('theirs@example.com'))).body;
    expect(entry.State).toBe('waiting');

    expect((await staff.send('GET', `/api/v2/operator/timeslots/${theirSlot.id}/waitlist`)).status).toBe(404);
    expect((await add(theirSlot.id, caller('intruder@example.com'))).status).toBe(404);
    for (const [method, action] of [
      ['POST', '/offer'],
      ['POST', '/book'],
      ['DELETE', ''],
    ] as const) {
      const answer = await staff.send(method, `/api/v2/operator/waitlist/${entry.WaitlistID}${action}`);
      expect(answer.status).toBe(404);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    }
    const entries = (await theirs.send('GET', `/api/v2/operator/timeslots/${theirSlot.id}/waitlist`)).body.Entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ State: 'waiting', Customer: { Email: 'theirs@example.com' } });
  });
});
