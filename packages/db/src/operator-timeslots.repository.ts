// The operator's reads and changes of timeslots by id. Every statement takes the account id. `Booked` leaves out holds
// that have lapsed but are not yet released (their places are free from the instant they lapse).
import type { OperatorTimeslot } from '@backbone/contracts';
import { formatInZone } from '@backbone/domain';
import { LAPSED_HOLDS } from './lapsed-holds.js';
import type { Db } from './pool.js';

const COLUMNS = `t.id, to_char(t.local_date, 'YYYY-MM-DD') AS local_date, to_char(t.local_time, 'HH24:MI') AS local_time, t.starts_at, t.ends_at,
                 t.capacity, t.booked - ${LAPSED_HOLDS} AS booked, t.status, t.starts_at <= now() AS started, a.time_zone`;

interface Row {
  id: string;
  local_date: string;
  local_time: string;
  starts_at: Date;
  ends_at: Date;
  capacity: number;
  booked: number;
  status: OperatorTimeslot['Status'];
  started: boolean;
  time_zone: string;
}

function toTimeslot(r: Row): OperatorTimeslot {
  return {
    TimeslotID: Number(r.id),
    Date: r.local_date,
    Time: r.local_time,
    StartsAt: formatInZone(r.starts_at, r.time_zone),
    EndsAt: formatInZone(r.ends_at, r.time_zone),
    Capacity: r.capacity,
    Booked: r.booked,
    Available: Math.max(0, r.capacity - r.booked),
    Status: r.status,
    Started: r.started,
  };
}

/** The activity's timeslots between two local dates, by start; null when the account has no such activity. */
export async function listActivityTimeslots(db: Db, accountId: string, activityId: string, from: string, to: string): Promise<OperatorTimeslot[] | null> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS}
       FROM activities a
       LEFT JOIN timeslots t ON t.account_id = a.account_id AND t.activity_id = a.id AND t.local_date BETWEEN $3 AND $4
      WHERE a.account_id = $1 AND a.activity_id = $2
      ORDER BY t.starts_at`,
    [accountId, activityId, from, to],
  );
  if (rows.length === 0) return null;
  return rows.filter((r) => r.id !== null).map(toTimeslot);
}

export async function findOperatorTimeslot(
  db: Db,
  accountId: string,
  timeslotId: number,
  options: { forUpdate?: boolean } = {},
): Promise<OperatorTimeslot | null> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM timeslots t JOIN activities a ON a.account_id = t.account_id AND a.id = t.activity_id
      WHERE t.account_id = $1 AND t.id = $2 ${options.forUpdate ? 'FOR UPDATE OF t' : ''}`,
    [accountId, timeslotId],
  );
  return rows[0] ? toTimeslot(rows[0]) : null;
}

/** How the audit log names a timeslot: its activity's name, its local date and time. */
export async function findTimeslotLabel(db: Db, accountId: string, timeslotId: number): Promise<string | null> {
  const { rows } = await db.query<{ label: string }>(
    `SELECT a.name || ', ' || to_char(t.local_date, 'YYYY-MM-DD') || ' ' || to_char(t.local_time, 'HH24:MI') AS label
       FROM timeslots t JOIN activities a ON a.account_id = t.account_id AND a.id = t.activity_id
      WHERE t.account_id = $1 AND t.id = $2`,
    [accountId, timeslotId],
  );
  return rows[0]?.label ?? null;
}

/** Opens or closes a timeslot of the account; null when there is no such timeslot. */
export async function setTimeslotStatusById(
  db: Db,
  accountId: string,
  timeslotId: number,
  status: OperatorTimeslot['Status'],
): Promise<OperatorTimeslot | null> {
  const { rowCount } = await db.query(`UPDATE timeslots SET status = $3 WHERE account_id = $1 AND id = $2`, [accountId, timeslotId, status]);
  return rowCount === 1 ? findOperatorTimeslot(db, accountId, timeslotId) : null;
}

/**
 * Sets the capacity when it is at least what is booked, in one conditional statement: a booking racing the change
 * either lands first (and the change is judged against it) or finds the new capacity. Lapsed holds must have been
 * released first (their places still sit in `booked`).
 */
export async function setTimeslotCapacity(db: Db, accountId: string, timeslotId: number, capacity: number): Promise<'changed' | 'below-booked'> {
  const { rowCount } = await db.query(`UPDATE timeslots SET capacity = $3 WHERE account_id = $1 AND id = $2 AND booked <= $3`, [
    accountId,
    timeslotId,
    capacity,
  ]);
  return rowCount === 1 ? 'changed' : 'below-booked';
}

/**
 * A booking's timeslot as its sale left it, read in the sale's transaction (which holds the timeslot's row lock since
 * its reservation): how many are booked against the capacity, and its label for the audit log.
 */
export async function findBookingTimeslotLoad(
  db: Db,
  accountId: string,
  reference: string,
): Promise<{ timeslotId: string; booked: number; capacity: number; label: string } | null> {
  const { rows } = await db.query<{ timeslotId: string; booked: number; capacity: number; label: string }>({
    name: 'booking-timeslot-load',
    text: `SELECT t.id::text AS "timeslotId", t.booked, t.capacity,
                  a.name || ', ' || to_char(t.local_date, 'YYYY-MM-DD') || ' ' || to_char(t.local_time, 'HH24:MI') AS label
             FROM bookings b
             JOIN timeslots t ON t.account_id = b.account_id AND t.id = b.timeslot_id
             JOIN activities a ON a.account_id = t.account_id AND a.id = t.activity_id
            WHERE b.account_id = $1 AND b.reference = $2`,
    values: [accountId, reference],
  });
  return rows[0] ?? null;
}
