// Timeslots: creation from a planned list, and the availability reads. A slot is bookable when it is open, has not
// started and has free places; the reservation in bookings.repository.ts applies the same rule atomically. A hold
// whose expiry has passed still sits in `booked` until it is released, but its places are free from that instant:
// the reads subtract such lapsed holds (LAPSED_HOLDS), found through the small partial index of holds.
// The reads find timeslots by the activity's internal id alone (it belongs to the one account the activity row was
// found in), never with the account's id as well: that would let PostgreSQL cost the prepared statement per account
// and plan it again on every execution (migration 1763707000000_timeslots-by-activity.sql).
import type { BookableTimeslot, DateAvailability, PlannedTimeslot } from '@backbone/domain';
import { bookedIn, statementIn } from './lapsed-holds.js';
import type { Db } from './pool.js';

/** Adds the planned timeslots; those whose (date, time) already exists for the activity are left as they are. */
export async function insertTimeslots(
  db: Db,
  accountId: string,
  activityInternalId: number,
  timeslots: readonly PlannedTimeslot[],
): Promise<{ created: number; existing: number }> {
  if (timeslots.length === 0) return { created: 0, existing: 0 };
  const { rowCount } = await db.query(
    `INSERT INTO timeslots (account_id, activity_id, local_date, local_time, starts_at, ends_at, capacity)
     SELECT $1, $2, d, t, s, e, c
       FROM unnest($3::date[], $4::time[], $5::timestamptz[], $6::timestamptz[], $7::int[]) AS x(d, t, s, e, c)
     ON CONFLICT (account_id, activity_id, local_date, local_time) DO NOTHING`,
    [
      accountId,
      activityInternalId,
      timeslots.map((s) => s.localDate),
      timeslots.map((s) => s.localTime),
      timeslots.map((s) => s.startsAt),
      timeslots.map((s) => s.endsAt),
      timeslots.map((s) => s.capacity),
    ],
  );
  const created = rowCount ?? 0;
  return { created, existing: timeslots.length - created };
}

/**
 * The bookable timeslots of an offered activity on a local date, ordered by time; null when the account offers no
 * such activity. One statement: the activity row comes back even when no slot matches.
 */
export async function listBookableTimeslots(
  db: Db,
  accountId: string,
  activityId: string,
  date: string,
  test = false,
): Promise<{ timeZone: string; timeslots: BookableTimeslot[] } | null> {
  // Instants come as epoch milliseconds (float8): node-postgres parses a timestamptz column with regular expressions,
  // which was a tenth of what this request allocated.
  const { rows } = await db.query<{ time_zone: string; local_time: string | null; starts_ms: number; ends_ms: number; capacity: number; booked: number }>({
    name: statementIn('timeslots-bookable', test),
    text: `SELECT a.time_zone, to_char(t.local_time, 'HH24:MI') AS local_time,
                  (extract(epoch FROM t.starts_at) * 1000)::float8 AS starts_ms, (extract(epoch FROM t.ends_at) * 1000)::float8 AS ends_ms,
                  t.capacity, t.booked
             FROM activities a
             LEFT JOIN LATERAL (
               SELECT t.local_time, t.starts_at, t.ends_at, t.capacity, ${bookedIn(test)} AS booked
                 FROM timeslots t
                WHERE t.activity_id = a.id AND t.local_date = $3 AND t.status = 'open' AND t.starts_at > now()
             ) t ON t.booked < t.capacity
            WHERE a.account_id = $1 AND a.activity_id = $2 AND a.active AND a.in_shopfront
            ORDER BY t.local_time`,
    values: [accountId, activityId, date],
  });
  const first = rows[0];
  if (!first) return null;
  return {
    timeZone: first.time_zone,
    timeslots: rows
      .filter((r) => r.local_time !== null)
      .map((r) => ({ localTime: r.local_time!, startsAt: new Date(r.starts_ms), endsAt: new Date(r.ends_ms), capacity: r.capacity, booked: r.booked })),
  };
}

/** Per local date from `from` to `to`: free places and number of bookable timeslots; dates without any are left out. */
export async function listAvailableDates(
  db: Db,
  accountId: string,
  activityId: string,
  from: string,
  to: string,
  test = false,
): Promise<DateAvailability[] | null> {
  const { rows } = await db.query<{ date: string | null; available: number | null; timeslots: number }>({
    name: statementIn('timeslots-dates', test),
    text: `SELECT to_char(t.local_date, 'YYYY-MM-DD') AS date, sum(t.capacity - t.booked) AS available, count(t.id) AS timeslots
             FROM activities a
             LEFT JOIN LATERAL (
               SELECT t.id, t.local_date, t.capacity, ${bookedIn(test)} AS booked
                 FROM timeslots t
                WHERE t.activity_id = a.id AND t.local_date BETWEEN $3 AND $4
                  AND t.status = 'open' AND t.starts_at > now()
             ) t ON t.booked < t.capacity
            WHERE a.account_id = $1 AND a.activity_id = $2 AND a.active AND a.in_shopfront
            GROUP BY t.local_date
            ORDER BY t.local_date`,
    values: [accountId, activityId, from, to],
  });
  if (rows.length === 0) return null;
  return rows.filter((r) => r.date !== null).map((r) => ({ date: r.date!, available: Number(r.available), timeslots: Number(r.timeslots) }));
}

/** Closes or reopens one timeslot of the account (an operator action); false when there is no such slot. */
export async function setTimeslotStatus(
  db: Db,
  accountId: string,
  activityInternalId: number,
  localDate: string,
  localTime: string,
  status: 'open' | 'closed',
): Promise<boolean> {
  const { rowCount } = await db.query(`UPDATE timeslots SET status = $5 WHERE account_id = $1 AND activity_id = $2 AND local_date = $3 AND local_time = $4`, [
    accountId,
    activityInternalId,
    localDate,
    localTime,
    status,
  ]);
  return rowCount === 1;
}

/** Which of the planned timeslots exist already for the activity, as `date time` (a generation's preview of clashes). */
export async function findExistingTimeslots(
  db: Db,
  accountId: string,
  activityInternalId: number,
  timeslots: readonly PlannedTimeslot[],
): Promise<Set<string>> {
  if (timeslots.length === 0) return new Set();
  const { rows } = await db.query<{ slot: string }>(
    `SELECT to_char(t.local_date, 'YYYY-MM-DD') || ' ' || to_char(t.local_time, 'HH24:MI') AS slot
       FROM timeslots t
       JOIN unnest($3::date[], $4::time[]) AS x(d, tm) ON t.local_date = x.d AND t.local_time = x.tm
      WHERE t.account_id = $1 AND t.activity_id = $2`,
    [accountId, activityInternalId, timeslots.map((s) => s.localDate), timeslots.map((s) => s.localTime)],
  );
  return new Set(rows.map((r) => r.slot));
}

export interface EmptyTimeslotRange {
  from: string;
  to: string;
  /** ISO weekdays (1 Monday .. 7 Sunday); empty: every day. */
  isoWeekdays: readonly number[];
  /** Local times (HH:MM); empty: every time. */
  times: readonly string[];
}

/**
 * The activity's timeslots in the range that no booking ever named (cancelled and lapsed ones included: their history
 * points at the slot), and how many in the range have one; `remove`: deletes those, in one statement, locking them
 * so that a booking made meanwhile keeps its slot (a booking's reservation updates the slot's row first).
 */
export async function emptyTimeslots(
  db: Db,
  accountId: string,
  activityInternalId: number,
  range: EmptyTimeslotRange,
  remove: boolean,
): Promise<{ empty: { date: string; time: string }[]; withBookings: number }> {
  const { rows } = await db.query<{ local_date: string; local_time: string; empty: boolean }>(
    `WITH candidates AS (
       SELECT t.id, t.local_date, t.local_time,
              NOT EXISTS (SELECT 1 FROM bookings b WHERE b.timeslot_id = t.id) AND t.booked = 0 AS empty
         FROM timeslots t
        WHERE t.account_id = $1 AND t.activity_id = $2 AND t.local_date BETWEEN $3::date AND $4::date
          AND (cardinality($5::int[]) = 0 OR extract(isodow FROM t.local_date)::int = ANY ($5::int[]))
          AND (cardinality($6::time[]) = 0 OR t.local_time = ANY ($6::time[]))
        ORDER BY t.local_date, t.local_time
        FOR UPDATE OF t
     ), removed AS (
       DELETE FROM timeslots t USING candidates c WHERE $7 AND c.empty AND t.id = c.id AND t.account_id = $1
     )
     SELECT to_char(local_date, 'YYYY-MM-DD') AS local_date, to_char(local_time, 'HH24:MI') AS local_time, empty FROM candidates`,
    [accountId, activityInternalId, range.from, range.to, range.isoWeekdays, range.times, remove],
  );
  return {
    empty: rows.filter((r) => r.empty).map((r) => ({ date: r.local_date, time: r.local_time })),
    withBookings: rows.filter((r) => !r.empty).length,
  };
}
