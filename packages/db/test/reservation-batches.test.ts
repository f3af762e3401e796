// Reservations of one timeslot that arrive together are made together: the booking store on the pool batches them
// into one statement per round. Bookings of one batch share their transaction's time, which is how these tests see
// that batches happened; the counter, the rows and the events show that nothing was oversold, lost or doubled.
import { describe, expect, it } from 'vitest';
import { createBookingStore } from '@backbone/db';
import { reserveBooking, DomainError, type NewBooking } from '@backbone/domain';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase({ poolSize: 10 });

async function timeslotWith(capacity: number) {
  const { account } = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, account.id, { maxParticipants: 10 });
  const slot = await createTestTimeslot(db.pool, activity, { date: futureDate(9), time: '10:00', capacity });
  const book = (participants: number, hold = false) => {
    const request: NewBooking = {
      accountId: account.id,
      apiKeyId: null,
      partnerId: null,
      hold: hold ? { minutes: 15 } : null,
      channel: 'ota',
      activityId: activity.activityId,
      date: slot.date,
      time: slot.time,
      participants,
      customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com' },
      paymentReference: `PAY-${participants}`,
      answers: undefined,
    };
    return reserveBooking(createBookingStore(db.pool), request).then(
      (booking) => ({ booked: booking }),
      (error: unknown) => {
        if (error instanceof DomainError) return { refused: error.code };
        throw error;
      },
    );
  };
  const ledger = async () => {
    const { rows } = await db.pool.query<{ booked: number; rows_sum: number; rows: number; events: number; moments: number; held: number }>(
      `SELECT t.booked,
              (SELECT coalesce(sum(participants), 0)::int FROM bookings WHERE timeslot_id = t.id) AS rows_sum,
              (SELECT count(*)::int FROM bookings WHERE timeslot_id = t.id) AS rows,
              (SELECT count(*)::int FROM bookings b JOIN outbox_events e ON e.payload->>'Reference' = b.reference
                WHERE b.timeslot_id = t.id AND e.type = 'booking.created'
                  AND (e.payload->>'OccurredAt')::bigint = floor(extract(epoch FROM b.created_at))::bigint) AS events,
              (SELECT count(DISTINCT created_at)::int FROM bookings WHERE timeslot_id = t.id) AS moments,
              (SELECT count(*)::int FROM bookings WHERE timeslot_id = t.id AND status = 'on_hold' AND expires_at > now()) AS held
         FROM timeslots t WHERE t.id = $1`,
      [slot.id],
    );
    return rows[0]!;
  };
  return { book, ledger };
}

describe('reservations of one timeslot made together', () => {
  it('120 at once with room for all: every one booked, with its event, in fewer statements than bookings', async () => {
    const { book, ledger } = await timeslotWith(1000);
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => book(1 + (i % 3), i % 2 === 0)));
    expect(answers.every((a) => 'booked' in a)).toBe(true);
    const after = await ledger();
    expect(after).toMatchObject({ booked: 240, rows_sum: 240, rows: 120, events: 120, held: 60 });
    expect(after.moments).toBeLessThan(120);
  });

  it('more than fit: exactly the capacity is taken, the rest refused as full, counter equal to the rows', async () => {
    const { book, ledger } = await timeslotWith(45);
    const answers = await Promise.all(Array.from({ length: 80 }, () => book(1)));
    expect(answers.filter((a) => 'booked' in a)).toHaveLength(45);
    expect(answers.filter((a) => 'refused' in a).map((a) => ('refused' in a ? a.refused : null))).toEqual(Array(35).fill('insufficient-capacity'));
    expect(await ledger()).toMatchObject({ booked: 45, rows_sum: 45, rows: 45, events: 45 });
  });

  it('mixed sizes: a request that does not fit does not keep a smaller later one from the places left', async () => {
    const { book, ledger } = await timeslotWith(10);
    const sizes = [4, 4, 4, 1, 1, 4, 1, 1, 2, 3];
    const answers = await Promise.all(sizes.map((n) => book(n)));
    const after = await ledger();
    const booked = answers.flatMap((a, i) => ('booked' in a ? [sizes[i]!] : []));
    expect(after.booked).toBe(booked.reduce((sum, n) => sum + n, 0));
    expect(after).toMatchObject({ rows_sum: after.booked, rows: booked.length, events: booked.length });
    // Nothing was refused that the places left at the end could still take.
    const refused = answers.flatMap((a, i) => ('refused' in a ? [sizes[i]!] : []));
    for (const n of refused) expect(n).toBeGreaterThan(10 - after.booked);
  });
});
