// A booking looked up by its own unique key (reference or id) is read through that key, also for an account the
// planner's statistics do not know yet. Before, PostgreSQL estimated one row for such an account and walked an index
// led by account_id, reading every booking of the account for each lookup (100-300 ms on 165,000 bookings).
import { describe, expect, it } from 'vitest';
import { findBooking, findOperatorBooking, markBookingCancelled, markBookingConfirmed } from '@backbone/db';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';
import { recording } from './plan-recorder.js';

const db = useTestDatabase();
const BOOKINGS_EACH = 3_000;

async function accountWithBookings(prefix: string) {
  const { account } = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, account.id);
  const slot = await createTestTimeslot(db.pool, activity, { date: futureDate(5), time: '10:00', capacity: 100_000 });
  await db.pool.query(
    `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer, status)
     SELECT $1, $2 || lpad(n::text, 4, '0'), t.activity_id, t.id, 'ota', 1, '{"FirstName":"Ada","LastName":"Lovelace"}', 'confirmed'
       FROM generate_series(1, $3::int) n, timeslots t WHERE t.id = $4`,
    [account.id, prefix, BOOKINGS_EACH, slot.id],
  );
  await db.pool.query('UPDATE timeslots SET booked = $2 WHERE id = $1', [slot.id, BOOKINGS_EACH]);
  return { accountId: account.id, reference: `${prefix}0042` };
}

describe('booking lookups by their unique key, on an account the statistics do not know', () => {
  it('find, confirm, cancel and the operator read each use the reference or the primary key', async () => {
    await accountWithBookings('KNWN-');
    await db.pool.query('ANALYZE bookings');
    const unknown = await accountWithBookings('NEWA-');

    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      const find = recording(client);
      const booking = await findBooking(find.recorder, { accountId: unknown.accountId, partnerId: null }, unknown.reference, { lock: true });
      expect(booking?.reference).toBe(unknown.reference);
      expect(await find.bookingIndexes()).toEqual(['bookings_reference_key']);

      const event = { eventId: crypto.randomUUID(), payload: { Reference: unknown.reference } };
      const confirm = recording(client);
      await markBookingConfirmed(
        confirm.recorder,
        booking!,
        { customer: { FirstName: 'Ada' }, paymentReference: null, answers: [] },
        { ...event, type: 'booking.confirmed' },
        { kind: 'system' },
      );
      expect(await confirm.bookingIndexes()).toEqual(['bookings_pkey']);
      const cancel = recording(client);
      await markBookingCancelled(
        cancel.recorder,
        booking!,
        { reason: null },
        { ...event, eventId: crypto.randomUUID(), type: 'booking.cancelled' },
        { kind: 'system' },
      );
      expect(await cancel.bookingIndexes()).toEqual(['bookings_pkey']);

      const operator = recording(client);
      expect((await findOperatorBooking(operator.recorder, unknown.accountId, unknown.reference))?.Reference).toBe(unknown.reference);
      expect(await operator.bookingIndexes()).toEqual(['bookings_reference_key']);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('still finds nothing for another account', async () => {
    const mine = await accountWithBookings('MINE-');
    const theirs = await accountWithBookings('THRS-');
    expect(await findBooking(db.pool, { accountId: mine.accountId, partnerId: null }, theirs.reference)).toBeNull();
    expect(await findOperatorBooking(db.pool, mine.accountId, theirs.reference)).toBeNull();
  });
});
