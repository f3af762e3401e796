// No oversell across the lifecycle: on a timeslot of capacity 20, a thousand concurrent requests mixing creates, holds,
// confirms and cancels, several rounds. Live bookings never hold more than 20 places, the stored counter equals the
// places of the live bookings (confirmed, and holds not expired), and every answer is 200, 201 or 409.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestTimeslot, futureDate } from '@backbone/testkit';
import { bookingBody, bookingPath, createOperator, keepAliveClient, timeslotLedger, usePartnerApi, type Operator, type RawResponse } from './support.js';

const { db, server } = usePartnerApi({ poolSize: 20 });
const BOOKING = '/api/v2/ota/partner/booking';
const CAPACITY = 20;
const REQUESTS = 1000;
const ROUNDS = 3;

let op: Operator;
let client: ReturnType<typeof keepAliveClient>;

beforeAll(async () => {
  op = await createOperator(db.pool);
  client = keepAliveClient(server.url, 100);
});
afterAll(() => client.close());

async function eventTotals(timeslotId: number) {
  const { rows } = await db.pool.query<{ type: string; events: number; bookings: number; max_per_booking: number }>(
    `SELECT e.type, count(*)::int AS events, count(DISTINCT b.id)::int AS bookings
       FROM outbox_events e JOIN bookings b ON b.reference = e.payload->>'Reference'
      WHERE b.timeslot_id = $1 GROUP BY e.type`,
    [timeslotId],
  );
  return Object.fromEntries(rows.map((r) => [r.type, r]));
}

describe('lifecycle races on capacity 20', () => {
  for (let round = 1; round <= ROUNDS; round++) {
    it(`round ${round}${round === ROUNDS ? ' (holds lapsing mid-way)' : ''}: ${REQUESTS} concurrent creates, holds, confirms and cancels never oversell and keep the counter exact`, async () => {
      const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 3, name: `Race ${round}` });
      const date = futureDate(40 + round);
      const slot = await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: CAPACITY });
      const at = { date, time: '10:00' };
      const create = (participants: number, hold: boolean) =>
        client.send('POST', BOOKING, {
          key: op.ota,
          body: bookingBody(activity, at, { Participants: participants, ...(hold ? { Hold: { Minutes: 15 } } : {}) }),
        });

      // Existing bookings for the confirms and cancels to act on: 8 holds and 8 confirmed, one place each.
      const seeded = await Promise.all(Array.from({ length: 16 }, (_, i) => create(1, i < 8)));
      expect(seeded.every((r) => r.status === 201)).toBe(true);
      const holds = seeded.slice(0, 8).map((r) => r.body.Reference as string);
      const confirmed = seeded.slice(8).map((r) => r.body.Reference as string);
      // The last round's holds lapse in the middle of the stampede: creates must take their places, confirms must not.
      const lapsing = round === ROUNDS;
      if (lapsing) await db.pool.query(`UPDATE bookings SET expires_at = now() + interval '300 milliseconds' WHERE reference = ANY($1)`, [holds]);

      const requests: Array<Promise<RawResponse[]>> = [];
      for (let i = 0; i < REQUESTS;) {
        const kind = i % 10;
        if (kind < 3) {
          requests.push(create((i % 3) + 1, false).then((r) => [r]));
          i += 1;
        } else if (kind < 5) {
          requests.push(create((i % 2) + 1, true).then((r) => [r]));
          i += 1;
        } else if (kind < 7) {
          // A hold followed at once by its confirm or its cancel.
          const then = kind === 5 ? 'confirm' : 'cancel';
          requests.push(
            create(1, true).then(async (r) =>
              r.status === 201 ? [r, await client.send('POST', bookingPath(r.body.Reference, then), { key: op.ota, body: {} })] : [r],
            ),
          );
          i += 2;
        } else if (kind < 8) {
          requests.push(client.send('POST', bookingPath(holds[i % holds.length]!, 'confirm'), { key: op.ota, body: {} }).then((r) => [r]));
          i += 1;
        } else {
          const targets = kind === 8 ? holds : confirmed;
          requests.push(
            client.send('POST', bookingPath(targets[i % targets.length]!, 'cancel'), { key: op.ota, body: { Reason: `race ${i}` } }).then((r) => [r]),
          );
          i += 1;
        }
      }
      const responses = (await Promise.all(requests)).flat();
      expect(responses.length).toBeGreaterThanOrEqual(900);
      const statuses = new Set(responses.map((r) => r.status));
      expect([...statuses].filter((s) => ![200, 201, 409].includes(s))).toEqual([]);

      const ledger = await timeslotLedger(db.pool, slot.id);
      expect(ledger.booked).toBeLessThanOrEqual(CAPACITY);
      expect(ledger.booked).toBe(ledger.live);
      if (!lapsing) expect(ledger.booked).toBe(ledger.unexpired);
      expect(ledger.unexpired).toBeLessThanOrEqual(CAPACITY);

      // Every cancel took effect once: one booking.cancelled per cancelled booking, one booking.confirmed per confirmed hold.
      const { rows } = await db.pool.query<{ status: string; n: number; held: number }>(
        `SELECT b.status, count(*)::int AS n,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM outbox_events e WHERE e.type = 'booking.created' AND e.payload->>'Reference' = b.reference AND e.payload->>'Status' = 'on_hold'))::int AS held
           FROM bookings b WHERE b.timeslot_id = $1 GROUP BY b.status`,
        [slot.id],
      );
      const byStatus = Object.fromEntries(rows.map((r) => [r.status, r]));
      const events = await eventTotals(slot.id);
      expect(events['booking.cancelled']?.events ?? 0).toBe(byStatus.cancelled?.n ?? 0);
      expect(events['booking.cancelled']?.bookings ?? 0).toBe(byStatus.cancelled?.n ?? 0);
      const total = rows.reduce((sum, r) => sum + r.n, 0);
      expect(events['booking.created']?.events).toBe(total);
      const confirmedEvents = events['booking.confirmed'];
      expect(confirmedEvents?.events ?? 0).toBe(confirmedEvents?.bookings ?? 0);
      expect(confirmedEvents?.events ?? 0).toBeGreaterThanOrEqual(byStatus.confirmed?.held ?? 0);
      // Something actually happened in each kind of request.
      expect(responses.some((r) => r.status === 201)).toBe(true);
      expect(responses.some((r) => r.status === 200 && r.body.Status === 'cancelled')).toBe(true);
      expect(responses.some((r) => r.status === 200 && r.body.Status === 'confirmed')).toBe(true);
    }, 60_000);
  }
});
