// The fold of the sales report's sums (migration 1763871900000): a past day's per-timeslot rows of booking_sales_rollup
// moved into booking_sales_daily, one row per day, activity, channel, partner, currency and cancelled-or-not. One
// statement deletes the rows it took and adds their sums, so a report (daily + per-timeslot) is exact before, during
// and after it. Rows another fold or a booking write holds are skipped and taken by a later pass.
import type { Db } from './pool.js';

/**
 * Folds up to `limit` per-timeslot rows of days before `before` (a calendar date); answers how many it folded. The
 * booking worker passes the day before yesterday in UTC: a day every time zone has left, whose rows hardly change.
 */
export async function foldBookingSales(db: Db, before: string, limit: number): Promise<number> {
  const { rows } = await db.query<{ folded: number }>({
    name: 'fold-booking-sales',
    text: `WITH taken AS (
             DELETE FROM booking_sales_rollup r
              WHERE r.ctid = ANY (ARRAY(SELECT ctid FROM booking_sales_rollup WHERE local_date < $1::date LIMIT $2 FOR UPDATE SKIP LOCKED))
             RETURNING r.account_id, r.local_date, r.activity_id, r.channel, r.partner_id, r.currency, r.cancelled, r.bookings, r.participants, r.revenue_minor
           ),
           added AS (
             INSERT INTO booking_sales_daily AS d (account_id, local_date, activity_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor)
             SELECT account_id, local_date, activity_id, channel, partner_id, currency, cancelled, sum(bookings), sum(participants), sum(revenue_minor)
               FROM taken
              GROUP BY account_id, local_date, activity_id, channel, partner_id, currency, cancelled
              -- One order for every fold: two folds adding to the same daily rows take them in the same order.
              ORDER BY account_id, local_date, activity_id, channel, partner_id, currency, cancelled
             ON CONFLICT ON CONSTRAINT booking_sales_daily_key DO UPDATE
                SET bookings = d.bookings + EXCLUDED.bookings, participants = d.participants + EXCLUDED.participants,
                    revenue_minor = d.revenue_minor + EXCLUDED.revenue_minor
           )
           SELECT count(*)::int AS folded FROM taken`,
    values: [before, limit],
  });
  return rows[0]!.folded;
}

/** The last day the booking worker does not fold as of `now`: the day before yesterday in UTC is the first it folds. */
export function salesFoldBefore(now: Date): string {
  const yesterday = new Date(now.getTime() - 86_400_000);
  return yesterday.toISOString().slice(0, 10);
}
