// The sales report's fold as the booking worker runs it (its own process): a past day's per-timeslot sums move into
// one row per day (added to what an earlier fold left there), yesterday's and later stay where they are, and the
// report's sums over both tables do not change.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { spawnWorker, untilRunning, waitFor } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();

const dayFromNow = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('the sales fold of the booking worker', () => {
  it("folds the days before yesterday into day rows and leaves yesterday's and later rows", async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = randomUUID();
    const old = dayFromNow(-30);
    // Two timeslots of one old day and channel (one of them a partner's), a cancelled part, and a row of yesterday.
    const rows: [string, number, string, string | null, boolean, number, number, number][] = [
      [old, 101, 'online', null, false, 3, 7, 31500],
      [old, 102, 'online', null, false, 2, 2, 9000],
      [old, 103, 'ota', partner, false, 1, 4, 18000],
      [old, 101, 'online', null, true, 1, 2, 9000],
      [dayFromNow(-1), 104, 'pos', null, false, 1, 1, 4500],
    ];
    for (const [day, timeslot, channel, partnerId, cancelled, bookings, participants, revenue] of rows) {
      await db.pool.query(
        `INSERT INTO booking_sales_rollup (account_id, local_date, activity_id, timeslot_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
         VALUES ($1, $2, 7, $3, $4, $5, 'EUR', $6, $7, $8, $9)`,
        [account.id, day, timeslot, channel, partnerId, cancelled, bookings, participants, revenue],
      );
    }
    // What an earlier fold left for that day and group: the new sums add to it.
    await db.pool.query(
      `INSERT INTO booking_sales_daily (account_id, local_date, activity_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
       VALUES ($1, $2, 7, 'online', NULL, 'EUR', false, 10, 20, 90000)`,
      [account.id, old],
    );

    const worker = spawnWorker(db, { REDIS_URL: redis.redisUrl, QUEUE_PREFIX: redis.prefix, METRICS_PORT: '0' });
    await untilRunning(worker);
    const left = async () =>
      (await db.pool.query(`SELECT local_date::text AS day FROM booking_sales_rollup WHERE account_id = $1 ORDER BY 1`, [account.id])).rows;
    await waitFor('the old day folded', async () => (await left()).length === 1);
    expect(await left()).toEqual([{ day: dayFromNow(-1) }]);
    const daily = await db.pool.query(
      `SELECT local_date::text AS day, channel, partner_id, cancelled, bookings, participants, revenue_minor::int AS revenue
         FROM booking_sales_daily WHERE account_id = $1 ORDER BY channel, cancelled`,
      [account.id],
    );
    expect(daily.rows).toEqual([
      { day: old, channel: 'online', partner_id: null, cancelled: false, bookings: 15, participants: 29, revenue: 130500 },
      { day: old, channel: 'online', partner_id: null, cancelled: true, bookings: 1, participants: 2, revenue: 9000 },
      { day: old, channel: 'ota', partner_id: partner, cancelled: false, bookings: 1, participants: 4, revenue: 18000 },
    ]);
  });
});
