// The partner availability reads keep one shared (generic) plan, also when one account holds most of the timeslots.
// Before, they found timeslots through the account's id as well as the activity's: PostgreSQL then costed each small
// account's own plan below the shared one and planned the statement again on every execution. In the bench, with an
// account of 1,000,000 bookings beside them, that planning was 0.86 ms of GET timeslots' 1.1 ms in the database and
// halved its throughput (3,400 req/s against 7,500 on the same data without that account).
import { expect, it } from 'vitest';
import { listAvailableDates, listBookableTimeslots } from '@backbone/db';
import { createTestAccount, createTestActivity, futureDate, useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();

/** `days` days of `perDay` timeslots from the day after tomorrow, for the activity with internal id `activityId`. */
async function insertTimeslots(accountId: string, activityId: number, days: number, perDay: number) {
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
  for (let i = 0; i < 20; i++) await insertTimeslots(big.account.id, (await createTestActivity(db.pool, big.account.id)).id, 365, 8);
  const small = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, small.account.id);
  await insertTimeslots(small.account.id, activity.id, 60, 8);
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
