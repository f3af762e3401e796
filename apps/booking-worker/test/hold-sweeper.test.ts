// The hold sweeper: a hold whose expiry passed is marked expired, its places go back to the timeslot once, and one
// booking.expired event leaves through the outbox; live holds and confirmed bookings are left alone.
import { describe, expect, it } from 'vitest';
import { validateEvent } from '@backbone/publisher';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase, waitFor } from '@backbone/testkit';
import { createBooking } from '@backbone/use-cases';
import { startHoldSweeper } from '../src/hold-sweeper.js';
import { silentLogger } from './support.js';

const db = useTestDatabase();

describe('hold sweeper', () => {
  it('releases lapsed holds once, with one booking.expired event each; live holds and confirmed bookings stay', async () => {
    const { account } = await createTestAccount(db.pool);
    const activity = await createTestActivity(db.pool, account.id);
    const date = futureDate(3, activity.timeZone);
    const slot = await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 10 });
    const book = async (participants: number, holdMinutes: number | null) =>
      (
        await createBooking(
          { pool: db.pool },
          {
            accountId: account.id,
            apiKeyId: null,
            partnerId: null,
            hold: holdMinutes ? { minutes: holdMinutes } : null,
            channel: 'online',
            activityId: activity.activityId,
            date,
            time: '10:00',
            participants,
            customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
            paymentReference: null,
            answers: undefined,
          },
        )
      ).value.Reference;
    const lapsed = [await book(2, 15), await book(3, 15)];
    const live = await book(1, 15);
    const confirmed = await book(4, null);
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = ANY($1)`, [lapsed]);
    const booked = async () => (await db.pool.query<{ booked: number }>('SELECT booked FROM timeslots WHERE id = $1', [slot.id])).rows[0]!.booked;
    expect(await booked()).toBe(10);

    const sweepers = [1, 2].map(() => startHoldSweeper({ pool: db.pool, intervalMs: 20, batchSize: 1, logger: silentLogger }));
    try {
      await waitFor(
        'the lapsed holds to be expired',
        async () => (await db.pool.query(`SELECT 1 FROM bookings WHERE reference = ANY($1) AND status = 'expired'`, [lapsed])).rowCount === 2,
      );
      // Two sweepers side by side, several passes each: the places come back once.
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await Promise.all(sweepers.map((s) => s.stop()));
    }
    expect(await booked()).toBe(5);
    const statuses = await db.pool.query<{ reference: string; status: string }>(`SELECT reference, status FROM bookings WHERE reference = ANY($1)`, [
      [live, confirmed],
    ]);
    expect(Object.fromEntries(statuses.rows.map((r) => [r.reference, r.status]))).toEqual({ [live]: 'on_hold', [confirmed]: 'confirmed' });
    const events = await db.pool.query<{ event_id: string; payload: Record<string, unknown> }>(
      `SELECT event_id, payload FROM outbox_events WHERE type = 'booking.expired' ORDER BY id`,
    );
    expect(events.rows.map((e) => e.payload.Reference).sort()).toEqual([...lapsed].sort());
    for (const event of events.rows) {
      expect(event.payload).toMatchObject({ Status: 'expired', UpdatedAt: expect.any(String) });
      expect(validateEvent('booking.expired', { ...event.payload, EventID: event.event_id, AccountID: account.id })).toEqual([]);
    }
  });

  it('deletes test bookings older than 30 days, giving back the test places they held; younger ones and live ones stay', async () => {
    const { account } = await createTestAccount(db.pool);
    const activity = await createTestActivity(db.pool, account.id);
    const date = futureDate(3, activity.timeZone);
    const slot = await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 10 });
    const book = async (participants: number, test: boolean) =>
      (
        await createBooking(
          { pool: db.pool },
          {
            accountId: account.id,
            apiKeyId: null,
            partnerId: null,
            test,
            hold: null,
            channel: 'online',
            activityId: activity.activityId,
            date,
            time: '10:00',
            participants,
            customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
            paymentReference: null,
            answers: undefined,
          },
        )
      ).value.Reference;
    const old = await book(3, true);
    const young = await book(2, true);
    const liveOld = await book(4, false);
    await db.pool.query(`UPDATE bookings SET created_at = now() - interval '31 days' WHERE reference = ANY($1)`, [[old, liveOld]]);
    const places = async () =>
      (await db.pool.query<{ booked: number; test_booked: number }>('SELECT booked, test_booked FROM timeslots WHERE id = $1', [slot.id])).rows[0]!;
    expect(await places()).toEqual({ booked: 4, test_booked: 5 });

    const sweeper = startHoldSweeper({ pool: db.pool, intervalMs: 20, batchSize: 10, logger: silentLogger });
    try {
      await waitFor(
        'the old test booking to be deleted',
        async () => (await db.pool.query(`SELECT 1 FROM bookings WHERE reference = $1`, [old])).rowCount === 0,
      );
    } finally {
      await sweeper.stop();
    }
    const left = await db.pool.query<{ reference: string }>(`SELECT reference FROM bookings WHERE reference = ANY($1) ORDER BY reference`, [
      [old, young, liveOld],
    ]);
    expect(left.rows.map((r) => r.reference)).toEqual([young, liveOld].sort());
    expect(await places()).toEqual({ booked: 4, test_booked: 2 });
  });
});
