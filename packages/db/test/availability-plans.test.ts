// The partner availability reads keep one shared (generic) plan, also when one account holds most of the timeslots.
// Before, they found timeslots through the account's id as well as the activity's: PostgreSQL then costed each small
// account's own plan below the shared one and planned the statement again on every execution. In the bench, with an
// account of 1,000,000 bookings beside them, that planning was 0.86 ms of GET timeslots' 1.1 ms in the database and
// halved its throughput (3,400 req/s against 7,500 on the same data without that account).
// They also read a timeslot's lapsed holds through that timeslot's own holds. Before, with statistics taken when there
// were no holds, PostgreSQL read them through the sweeper's index of every lapsed hold, dead entries included, once per
// timeslot (385 buffers for GET timeslots at the end of a bench run instead of 28).
import { expect, it } from 'vitest';
import { listAvailableDates, listBookableTimeslots, listTimeslotsWithLapsedHolds } from '@backbone/db';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';
import { recording } from './plan-recorder.js';
import { insertBookings } from './seed-bookings.js';

const db = useTestDatabase();

/** `days` days of `perDay` timeslots from the day after tomorrow, for the activity with internal id `activityId`. */
async function insertTimeslotGrid(accountId: string, activityId: number, days: number, perDay: number) {
  await db.pool.query(
    `INSERT INTO timeslots (account_id, activity_id, local_date, local_time, starts_at, ends_at, capacity)
     SELECT $1, $2, current_date + 2 + d, make_time(6 + s, 0, 0), (current_date + 2 + d + make_time(6 + s, 0, 0))::timestamptz,
            (current_date + 2 + d + make_time(7 + s, 0, 0))::timestamptz, 12
       FROM generate_series(0, $3::int - 1) d, generate_series(0, $4::int - 1) s`,
    [accountId, activityId, days, perDay],
  );
}

it('GET timeslots and GET dates keep one generic plan beside an account that holds most of the timeslots', async () => {
  const big = await createTestAccount(db.pool);
  for (let i = 0; i < 20; i++) await insertTimeslotGrid(big.account.id, (await createTestActivity(db.pool, big.account.id)).id, 365, 8);
  const small = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, small.account.id);
  await insertTimeslotGrid(small.account.id, activity.id, 60, 8);
  await db.pool.query('ANALYZE timeslots');

  const client = await db.pool.connect();
  try {
    for (let i = 0; i < 12; i++) {
      const day = futureDate(3 + i);
      expect((await listBookableTimeslots(client, small.account.id, activity.activityId, day))?.timeslots).toHaveLength(8);
      expect(await listAvailableDates(client, small.account.id, activity.activityId, day, futureDate(4 + i))).toHaveLength(2);
    }
    // PostgreSQL plans a prepared statement for its first five executions, then keeps the generic plan when it costs
    // no more than those; the counts are this session's.
    const { rows } = await client.query<{ name: string; generic_plans: string; custom_plans: string }>(
      `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE name IN ('timeslots-bookable', 'timeslots-dates') ORDER BY name`,
    );
    expect(rows.map((r) => ({ name: r.name, generic: Number(r.generic_plans), custom: Number(r.custom_plans) }))).toEqual([
      { name: 'timeslots-bookable', generic: 7, custom: 5 },
      { name: 'timeslots-dates', generic: 7, custom: 5 },
    ]);
  } finally {
    client.release();
  }
});

it("GET timeslots and GET dates read a timeslot's lapsed holds through its own holds, whatever the statistics say", async () => {
  const { account } = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, account.id);
  const day = futureDate(5);
  const busy = await createTestTimeslot(db.pool, activity, { date: futureDate(6), time: '10:00', capacity: 100_000 });
  const read = await createTestTimeslot(db.pool, activity, { date: day, time: '12:00', capacity: 10 });
  // Statistics taken when no booking was on hold; then thousands of holds elsewhere, lapsed and live, that the sweeper
  // has not released, and two lapsed holds in the timeslot read.
  await insertBookings(db.pool, account.id, busy.id, 'CONF-', 3_000, 'none');
  await db.pool.query('ANALYZE bookings');
  await insertBookings(db.pool, account.id, busy.id, 'GONE-', 3_000, 'lapsed');
  await insertBookings(db.pool, account.id, busy.id, 'LIVE-', 3_000, 'live');
  await insertBookings(db.pool, account.id, read.id, 'MINE-', 2, 'lapsed');

  const reads = recording(db.pool);
  // The lapsed holds' places are free: all 10 are offered.
  expect(
    (await listBookableTimeslots(reads.recorder, account.id, activity.activityId, day))?.timeslots.map((t) => [t.localTime, t.capacity - t.booked]),
  ).toEqual([['12:00', 10]]);
  expect(await listAvailableDates(reads.recorder, account.id, activity.activityId, day, day)).toEqual([{ date: day, available: 10, timeslots: 1 }]);
  // Each statement reads the holds twice (the free places are both shown and tested), each time the timeslot's own.
  expect(await reads.bookingIndexes()).toEqual(Array(4).fill('bookings_holds_idx'));

  // The sweeper's index of every lapsed hold cannot serve them at all: without the per-timeslot indexes, and with
  // sequential scans discouraged, PostgreSQL still does not read them through it (the old reads did).
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('DROP INDEX bookings_holds_idx; DROP INDEX bookings_timeslot_idx; SET LOCAL enable_seqscan = off');
    const cornered = recording(client);
    await listBookableTimeslots(cornered.recorder, account.id, activity.activityId, day);
    await listAvailableDates(cornered.recorder, account.id, activity.activityId, day, day);
    const used = await cornered.bookingIndexes();
    expect(used).toHaveLength(4);
    expect(used).not.toContain('bookings_hold_expiry_idx');
    // While the sweeper's own statement still finds the lapsed holds of every timeslot through it.
    const sweeper = recording(client);
    expect(new Set(await listTimeslotsWithLapsedHolds(sweeper.recorder, 10))).toEqual(new Set([busy.id, read.id]));
    expect(await sweeper.bookingIndexes()).toEqual(['bookings_hold_expiry_idx']);
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
});
