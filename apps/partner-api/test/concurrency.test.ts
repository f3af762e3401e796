// No oversell: a thousand concurrent bookings against one timeslot of capacity 100, single places and mixed party
// sizes, several rounds. Every place is accounted for by exactly one booking row and one outbox event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestTimeslot, futureDate } from '@backbone/testkit';
import { bookingBody, createOperator, keepAliveClient, PROBLEM_BASE, usePartnerApi, type Operator, type RawResponse } from './support.js';

// A realistic pool: concurrency is what is tested, not a connection per request.
const { db, server } = usePartnerApi({ poolSize: 20 });
const REQUESTS = 1000;
const CAPACITY = 100;
const ROUNDS = 3;

let op: Operator;
let client: ReturnType<typeof keepAliveClient>;

beforeAll(async () => {
  op = await createOperator(db.pool);
  client = keepAliveClient(server.url, 100);
});
afterAll(() => client.close());

async function storedState(timeslotId: number) {
  const { rows } = await db.pool.query<{ booked: number; capacity: number; rows: number; participants: number; events: number; event_participants: number }>(
    `SELECT t.booked, t.capacity,
            (SELECT count(*) FROM bookings b WHERE b.timeslot_id = t.id) AS rows,
            (SELECT coalesce(sum(participants), 0) FROM bookings b WHERE b.timeslot_id = t.id) AS participants,
            (SELECT count(*) FROM outbox_events e JOIN bookings b ON b.reference = e.payload->>'Reference' WHERE b.timeslot_id = t.id) AS events,
            (SELECT coalesce(sum((e.payload->>'Participants')::int), 0) FROM outbox_events e JOIN bookings b ON b.reference = e.payload->>'Reference' WHERE b.timeslot_id = t.id) AS event_participants
       FROM timeslots t WHERE t.id = $1`,
    [timeslotId],
  );
  return rows[0]!;
}

async function stampede(sizes: number[], round: number) {
  const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 4, name: `Hot slot ${round}` });
  const date = futureDate(20 + round);
  const slot = await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: CAPACITY });
  const responses: RawResponse[] = await Promise.all(
    sizes.map((participants) =>
      client.send('POST', '/api/v2/ota/partner/booking', { key: op.ota, body: bookingBody(activity, { date, time: '10:00' }, { Participants: participants }) }),
    ),
  );
  return { slot, responses };
}

describe('no oversell', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: ${REQUESTS} concurrent bookings of one place on capacity ${CAPACITY} give exactly ${CAPACITY} bookings`, async () => {
      const { slot, responses } = await stampede(
        Array.from({ length: REQUESTS }, () => 1),
        round,
      );
      const created = responses.filter((r) => r.status === 201);
      const refused = responses.filter((r) => r.status === 409);
      expect(created).toHaveLength(CAPACITY);
      expect(refused).toHaveLength(REQUESTS - CAPACITY);
      for (const r of refused) expect(r.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 0 });
      expect(new Set(created.map((r) => r.body.Reference)).size).toBe(CAPACITY);

      const state = await storedState(slot.id);
      expect(state).toEqual({ booked: CAPACITY, capacity: CAPACITY, rows: CAPACITY, participants: CAPACITY, events: CAPACITY, event_participants: CAPACITY });
    });
  }

  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}: ${REQUESTS} concurrent bookings of 1 to 4 places never exceed capacity ${CAPACITY}`, async () => {
      const sizes = Array.from({ length: REQUESTS }, (_, i) => ((i * 7 + round) % 4) + 1);
      const { slot, responses } = await stampede(sizes, ROUNDS + round);
      expect(responses.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      const createdSizes = responses.flatMap((r, i) => (r.status === 201 ? [sizes[i]!] : []));
      const bookedByAnswers = createdSizes.reduce((sum, n) => sum + n, 0);
      // Each refusal was right when it was made: fewer places were left than asked for.
      responses.forEach((r, i) => {
        if (r.status === 409) {
          expect(r.body.type).toBe(`${PROBLEM_BASE}/insufficient-capacity`);
          expect(r.body.Available).toBeLessThan(sizes[i]!);
        }
      });
      const state = await storedState(slot.id);
      expect(state.booked).toBeLessThanOrEqual(CAPACITY);
      expect(state.booked).toBe(bookedByAnswers);
      expect(state.participants).toBe(bookedByAnswers);
      expect(state.rows).toBe(createdSizes.length);
      expect(state.events).toBe(createdSizes.length);
      expect(state.event_participants).toBe(bookedByAnswers);
      // Places only ever decrease, so what is left at the end is no more than any refusal saw, hence less than
      // the smallest refused party: nothing that could have been booked was turned away.
      const left = CAPACITY - state.booked;
      const refusedSizes = responses.flatMap((r, i) => (r.status === 409 ? [sizes[i]!] : []));
      expect(refusedSizes.length).toBeGreaterThan(0);
      expect(left).toBeLessThan(Math.min(...refusedSizes));
      for (const r of responses) if (r.status === 409) expect(r.body.Available).toBeGreaterThanOrEqual(left);
    });
  }
});
