// The hold sweeper in the worker: lapsed holds become expired with their places given back and one booking.expired
// each, however many passes run; holds still running and confirmed bookings are left alone.
import { describe, expect, it } from 'vitest';
import { createBookingStore } from '@backbone/db';
import { createBooking } from '@backbone/domain';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';
import { startHoldSweeper } from '../src/hold-sweeper.js';
import { silentLogger, waitFor } from './support.js';

const db = useTestDatabase();

describe('hold sweeper', () => {
  it('expires lapsed holds once, frees their places and writes one booking.expired each', async () => {
    const { account } = await createTestAccount(db.pool);
    const activity = await createTestActivity(db.pool, account.id);
    const date = futureDate(3);
    const slot = await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 10 });
    const book = (participants: number, hold: boolean) =>
      createBooking(createBookingStore(db.pool), {
        accountId: account.id,
        apiKeyId: null,
        partnerId: null,
        hold: hold ? { minutes: 15 } : null,
        channel: 'pos',
        activityId: activity.activityId,
        date,
        time: '10:00',
        participants,
        customer: { FirstName: 'Ana', LastName: 'Lima', Email: 'ana@example.com' },
        paymentReference: null,
        answers: undefined,
      });
    const lapsed = [await book(2, true), await book(3, true)];
    const running = await book(1, true);
    const confirmed = await book(4, false);
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = ANY($1)`, [lapsed.map((b) => b.Reference)]);
    // Lapsed holds on other timeslots too: two sweepers working through several timeslots at once.
    const others = await Promise.all(
      ['11:00', '12:00', '13:00', '14:00'].map(async (time) => {
        await createTestTimeslot(db.pool, activity, { date, time, capacity: 10 });
        return createBooking(createBookingStore(db.pool), {
          accountId: account.id, apiKeyId: null, partnerId: null, hold: { minutes: 15 }, channel: 'pos', activityId: activity.activityId, date, time,
          participants: 1, customer: {}, paymentReference: null, answers: undefined,
        });
      }),
    );
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = ANY($1)`, [others.map((b) => b.Reference)]);

    const sweepers = [startHoldSweeper({ pool: db.pool, batchSize: 10, intervalMs: 20, logger: silentLogger }), startHoldSweeper({ pool: db.pool, batchSize: 10, intervalMs: 20, logger: silentLogger })];
    try {
      await waitFor('every lapsed hold expired', async () => {
        const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM bookings WHERE status = 'expired'`);
        return rows[0]!.n === 6;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await Promise.all(sweepers.map((s) => s.stop()));
    }
    const { rows } = await db.pool.query<{ reference: string; status: string; expired_events: number }>(
      `SELECT b.reference, b.status, (SELECT count(*)::int FROM outbox_events e WHERE e.type = 'booking.expired' AND e.payload->>'Reference' = b.reference) AS expired_events
         FROM bookings b WHERE b.timeslot_id = $1 ORDER BY b.id`,
      [slot.id],
    );
    expect(rows).toEqual([
      { reference: lapsed[0]!.Reference, status: 'expired', expired_events: 1 },
      { reference: lapsed[1]!.Reference, status: 'expired', expired_events: 1 },
      { reference: running.Reference, status: 'on_hold', expired_events: 0 },
      { reference: confirmed.Reference, status: 'confirmed', expired_events: 0 },
    ]);
    const { rows: slots } = await db.pool.query<{ booked: number }>('SELECT booked FROM timeslots WHERE activity_id = $1 ORDER BY local_time', [activity.id]);
    expect(slots.map((s) => s.booked)).toEqual([5, 0, 0, 0, 0]);
    const { rows: events } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_events WHERE type = 'booking.expired'`);
    expect(events[0]!.n).toBe(6);
  });
});
