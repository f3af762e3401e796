// The partners' sandbox: test bookings are kept 30 days from their creation, then deleted with their history (the
// booking_history rows cascade). Places a deleted booking still held go back to its timeslot's test places in the
// same statement; test bookings are in no sales sum (the rollup trigger skips them), so nothing else changes.
import type { Db } from './pool.js';

export const TEST_BOOKING_DAYS = 30;

/** Deletes up to `limit` test bookings created more than 30 days ago; answers how many. */
export async function deleteOldTestBookings(db: Db, limit: number): Promise<number> {
  const { rows } = await db.query<{ deleted: number }>({
    name: 'sandbox-delete-old-test-bookings',
    text: `WITH due AS (
             SELECT id FROM bookings WHERE test AND created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2
               FOR UPDATE SKIP LOCKED
           ), deleted AS (
             DELETE FROM bookings b USING due WHERE b.id = due.id
             RETURNING b.timeslot_id, b.participants, b.status
           ), held AS (
             SELECT timeslot_id, sum(participants)::int AS n FROM deleted WHERE status IN ('confirmed', 'on_hold') GROUP BY timeslot_id
           ), released AS (
             UPDATE timeslots t SET test_booked = t.test_booked - held.n FROM held WHERE t.id = held.timeslot_id
           )
           SELECT count(*)::int AS deleted FROM deleted`,
    values: [TEST_BOOKING_DAYS, limit],
  });
  return rows[0]?.deleted ?? 0;
}
