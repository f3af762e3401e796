// Bookings inserted straight into a timeslot (and counted in its `booked`), many at once, for the plan tests: confirmed
// ones, live holds or holds that lapsed a minute ago and are not yet released.
import type { Pool } from '@backbone/db';

export async function insertBookings(pool: Pool, accountId: string, timeslotId: number, prefix: string, count: number, hold: 'none' | 'live' | 'lapsed') {
  await pool.query(
    `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer, status, expires_at)
     SELECT $1, $2 || lpad(n::text, 4, '0'), t.activity_id, t.id, 'ota', 1, '{"FirstName":"Ada","LastName":"Lovelace"}',
            CASE WHEN $5 = 'none' THEN 'confirmed' ELSE 'on_hold' END,
            CASE $5 WHEN 'live' THEN now() + interval '1 hour' WHEN 'lapsed' THEN now() - interval '1 minute' END
       FROM generate_series(1, $3::int) n, timeslots t WHERE t.id = $4`,
    [accountId, prefix, count, timeslotId, hold],
  );
  await pool.query('UPDATE timeslots SET booked = booked + $2 WHERE id = $1', [timeslotId, count]);
}
