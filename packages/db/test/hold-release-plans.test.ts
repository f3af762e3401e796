// Releasing a timeslot's lapsed holds does not read the live holds of every timeslot, also when the planner's
// statistics were taken before there were any holds. Before, the statement updated the lapsed rows by joining them back through the holds'
// partial index (estimated at one row): every execution read every unexpired hold of every timeslot. In the bench,
// with 50,000 holds elsewhere, each release took 1-2 s, and the hot timeslot's bookings that waited on one with it.
import { expect, it } from 'vitest';
import { releaseLapsedHolds } from '@backbone/db';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';
import { recording } from './plan-recorder.js';
import { insertBookings } from './seed-bookings.js';

const db = useTestDatabase();
const OTHER_BOOKINGS = 3_000;

it("a timeslot's lapsed holds are released through its own holds and the primary key, whatever the statistics say", async () => {
  const { account } = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, account.id);
  const busy = await createTestTimeslot(db.pool, activity, { date: futureDate(5), time: '10:00', capacity: 100_000 });
  const hot = await createTestTimeslot(db.pool, activity, { date: futureDate(5), time: '12:00', capacity: 100 });
  // Statistics taken when no booking was on hold; then thousands of live holds elsewhere and a few lapsed ones here.
  await insertBookings(db.pool, account.id, busy.id, 'CONF-', OTHER_BOOKINGS, 'none');
  await db.pool.query('ANALYZE bookings');
  await insertBookings(db.pool, account.id, busy.id, 'LIVE-', OTHER_BOOKINGS, 'live');
  await insertBookings(db.pool, account.id, hot.id, 'GONE-', 5, 'lapsed');

  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    const release = recording(client);
    expect(await releaseLapsedHolds(release.recorder, { timeslotId: hot.id, limit: 1000 })).toEqual({ ota: 5 });
    // One read finds the lapsed holds (through whichever index the statistics favour: the timeslot's holds, its
    // bookings or the lapsed holds of all timeslots, never a sequential scan), one updates them by id: the live holds of
    // the other timeslot are not read.
    const [find, update, ...more] = await release.bookingIndexes();
    expect(['bookings_holds_idx', 'bookings_timeslot_idx', 'bookings_hold_expiry_idx']).toContain(find);
    expect(update).toBe('bookings_pkey');
    expect(more).toEqual([]);
    const { rows } = await client.query<{ booked: number }>('SELECT booked FROM timeslots WHERE id = $1', [hot.id]);
    expect(rows[0]!.booked).toBe(0);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
});
