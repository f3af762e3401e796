// The booking lifecycle in SQL: a booking as a partner (or the operator) reads it, the transitions (confirm, cancel,
// expiry) each with its outbox event in the same transaction, the release of lapsed holds, and the sync feed.
// Lock order everywhere: the booking rows first, then their timeslot's row, so two transitions never deadlock.
import type { BookingActor } from '@backbone/domain';
import { BOOKING_FROM, BOOKING_RECORD_MEMBERS, bookingColumns, toBookingRecord, type BookingRecord, type BookingRowOf } from './booking-row.js';
import { tenantIs } from './tenant-check.js';
import { COMMIT_WITHOUT_FLUSH, type Db } from './pool.js';

const RECORD_COLUMNS = bookingColumns(BOOKING_RECORD_MEMBERS, { status: 'stored' });

/** Who is asking: a partner sees only its own bookings; the operator (partnerId null) every booking of the account. */
export interface BookingOwner {
  accountId: string;
  partnerId: string | null;
  /**
   * A key's mode: true for a test key (it sees only sandbox bookings), false for a live one (only live bookings);
   * absent for the operator, who sees both.
   */
  test?: boolean;
}

/**
 * The booking with this reference, if `owner` may see it; `lock` takes its row lock (inside a transaction) before the
 * transition that follows reads it.
 */
export async function findBooking(db: Db, owner: BookingOwner, reference: string, options: { lock?: boolean } = {}): Promise<BookingRecord | null> {
  const { rows } = await db.query<BookingRowOf<(typeof BOOKING_RECORD_MEMBERS)[number]>>({
    name: options.lock ? 'booking-find-locked' : 'booking-find',
    text: `SELECT ${RECORD_COLUMNS} FROM ${BOOKING_FROM}
            WHERE b.reference = $2 AND ${tenantIs('b.account_id', '$1')} AND ($3::uuid IS NULL OR b.partner_id = $3)
              AND ($4::boolean IS NULL OR b.test = $4)
            ${options.lock ? 'FOR UPDATE OF b' : ''}`,
    values: [owner.accountId, reference, owner.partnerId, owner.test ?? null],
  });
  if (rows[0]) return toBookingRecord(rows[0]);
  if (!options.lock) return null;
  // A booking another transaction moved to another timeslot (or activity) while this one waited for its lock is
  // re-checked by PostgreSQL against the timeslot row the join read before the wait, and drops out of the answer
  // (EvalPlanQual): it looked missing to the second of two concurrent moves. Lock the booking row alone, then read it
  // again under that lock. Only this rare path pays the second round trip.
  const locked = await db.query({
    name: 'booking-lock-alone',
    text: `SELECT 1 FROM bookings b WHERE b.reference = $2 AND ${tenantIs('b.account_id', '$1')} AND ($3::uuid IS NULL OR b.partner_id = $3)
              AND ($4::boolean IS NULL OR b.test = $4) FOR UPDATE`,
    values: [owner.accountId, reference, owner.partnerId, owner.test ?? null],
  });
  return locked.rowCount ? findBooking(db, owner, reference) : null;
}

export interface LifecycleEvent {
  eventId: string;
  type: 'booking.confirmed' | 'booking.cancelled';
  payload: Record<string, unknown>;
}

/** The history row's actor columns (actor_kind, partner_id, api_key_id, user_id) of who made a change. */
export function actorColumns(actor: BookingActor): [string, string | null, string | null, string | null] {
  switch (actor.kind) {
    case 'partner':
      return ['partner', actor.partnerId, actor.apiKeyId, null];
    case 'operator':
      return ['operator', null, actor.apiKeyId, actor.userId];
    case 'customer':
      return ['customer', null, null, null];
    case 'system':
      return ['system', null, null, null];
  }
}

/** Confirms a hold (row locked by the caller): the customer and answers as completed, its event and its history row. */
export async function markBookingConfirmed(
  db: Db,
  booking: BookingRecord,
  change: { customer: Record<string, unknown>; paymentReference: string | null; answers: unknown[] },
  event: LifecycleEvent,
  actor: BookingActor,
): Promise<void> {
  await db.query({
    name: 'booking-confirm',
    text: `WITH confirmed AS (
             UPDATE bookings SET status = 'confirmed', expires_at = NULL, customer = $3, payment_reference = $4, answers = $5
              WHERE id = $2 AND ${tenantIs('account_id', '$1')}
           ), history AS (
             INSERT INTO booking_history (account_id, booking_id, action, actor_kind, partner_id, api_key_id, user_id)
             VALUES ($1, $2, 'confirmed', $9, $10, $11, $12)
           )
           INSERT INTO outbox_events (account_id, event_id, type, payload)
           VALUES ($1, $6, $7, $8::jsonb || jsonb_build_object('OccurredAt', floor(extract(epoch FROM now()))::bigint))`,
    values: [
      booking.accountId,
      booking.id,
      JSON.stringify(change.customer),
      change.paymentReference,
      JSON.stringify(change.answers),
      event.eventId,
      event.type,
      JSON.stringify(event.payload),
      ...actorColumns(actor),
    ],
  });
}

/**
 * Cancels a booking (row locked by the caller), gives its places back to the timeslot when it still held them (a
 * confirmed booking, or a hold not yet expired), and records its event; all in one statement.
 */
export async function markBookingCancelled(
  db: Db,
  booking: BookingRecord,
  change: { reason: string | null },
  event: LifecycleEvent,
  actor: BookingActor,
): Promise<void> {
  await db.query({
    name: 'booking-cancel',
    text: `WITH cancelled AS (
             UPDATE bookings SET status = 'cancelled', expires_at = NULL, cancelled_at = now(), cancellation_reason = $3
              WHERE id = $2 AND ${tenantIs('account_id', '$1')}
             RETURNING timeslot_id
           ), released AS (
             UPDATE timeslots SET booked = booked - CASE WHEN $13 THEN 0 ELSE $4 END, test_booked = test_booked - CASE WHEN $13 THEN $4 ELSE 0 END
              WHERE id = (SELECT timeslot_id FROM cancelled) AND $5
           ), history AS (
             INSERT INTO booking_history (account_id, booking_id, action, actor_kind, partner_id, api_key_id, user_id, reason)
             VALUES ($1, $2, 'cancelled', $9, $10, $11, $12, $3)
           )
           INSERT INTO outbox_events (account_id, event_id, type, payload)
           VALUES ($1, $6, $7, $8::jsonb || jsonb_build_object('OccurredAt', floor(extract(epoch FROM now()))::bigint))`,
    values: [
      booking.accountId,
      booking.id,
      change.reason,
      booking.participants,
      booking.status === 'on_hold' || booking.status === 'confirmed',
      event.eventId,
      event.type,
      JSON.stringify(event.payload),
      ...actorColumns(actor),
      booking.test,
    ],
  });
}

/** Holds released by one call, by the channel that made them. */
export type ReleasedHolds = Partial<Record<BookingRecord['channel'], number>>;

/**
 * Marks up to `limit` of a timeslot's holds whose expiry has passed as expired, gives their places back and records a
 * booking.expired event for each; one statement. Rows another transaction holds are skipped: whoever holds them is
 * deciding their fate. Answers how many holds it released. It commits without waiting for the disk, so a popular
 * timeslot's row is not held through a flush: nobody is told of a release as such (a crash that undid one leaves holds
 * that have lapsed, which count as free and are released again), and whoever answers after one (a reservation, a
 * capacity change) awaits durability first.
 *
 * The rows `due` locked are updated by id alone: they were on hold when locked, and nobody else can change them now.
 * With `status = 'on_hold'` there too, statistics taken before there were holds let PostgreSQL join them back through
 * the holds' partial index, reading every hold of every timeslot per release (1-2 s at 50,000 holds).
 */
export async function releaseLapsedHolds(db: Db, options: { timeslotId: number; limit: number }): Promise<ReleasedHolds> {
  const { rows } = await db.query<{ channel: BookingRecord['channel']; released: number }>({
    name: 'bookings-release-lapsed',
    text: `WITH due AS (
             SELECT id FROM bookings
              WHERE timeslot_id = $1 AND status = 'on_hold' AND expires_at <= now()
              ORDER BY expires_at LIMIT $2
              FOR UPDATE SKIP LOCKED
           ), lapsed AS (
             UPDATE bookings b SET status = 'expired'
               FROM due WHERE b.id = due.id
             RETURNING b.account_id, b.partner_id, b.reference, b.channel, b.timeslot_id, b.participants, b.expires_at, b.updated_at, b.test
           ), per_slot AS (
             SELECT timeslot_id, coalesce(sum(participants) FILTER (WHERE NOT test), 0)::int AS n,
                    coalesce(sum(participants) FILTER (WHERE test), 0)::int AS test_n
               FROM lapsed GROUP BY timeslot_id
           ), released AS (
             UPDATE timeslots t SET booked = t.booked - per_slot.n, test_booked = t.test_booked - per_slot.test_n
               FROM per_slot WHERE t.id = per_slot.timeslot_id AND ${COMMIT_WITHOUT_FLUSH}
           ), events AS (
             INSERT INTO outbox_events (account_id, event_id, type, payload)
             SELECT account_id, gen_random_uuid(), 'booking.expired',
                    jsonb_strip_nulls(jsonb_build_object('PartnerID', partner_id, 'Test', CASE WHEN test THEN true END)) || jsonb_build_object(
                      'Reference', reference, 'Status', 'expired', 'OccurredAt', floor(extract(epoch FROM expires_at))::bigint,
                      'UpdatedAt', to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
               FROM lapsed
           )
           SELECT channel, count(*)::int AS released FROM lapsed GROUP BY channel`,
    values: [options.timeslotId, options.limit],
  });
  return Object.fromEntries(rows.map((row) => [row.channel, row.released]));
}

/**
 * Timeslots with holds whose expiry has passed, those expired longest first. The sweeper releases them one timeslot
 * per statement: a statement that updated several timeslot rows could take their locks in another order than a
 * second sweeper's and deadlock with it.
 */
export async function listTimeslotsWithLapsedHolds(db: Db, limit: number): Promise<number[]> {
  const { rows } = await db.query<{ timeslot_id: number }>({
    name: 'timeslots-with-lapsed-holds',
    text: `SELECT timeslot_id FROM bookings WHERE status = 'on_hold' AND expires_at <= now()
            GROUP BY timeslot_id ORDER BY min(expires_at) LIMIT $1`,
    values: [limit],
  });
  return rows.map((r) => Number(r.timeslot_id));
}

/** A position in the sync feed: the change's transaction and the booking's id. */
export interface SyncPosition {
  xid: string;
  id: number;
}

/**
 * A booking as the sync feed serves it: what the partner's answer shows and nothing more. Instants are ISO 8601 text
 * written by PostgreSQL and the status is the shown one: a page is 500 rows, and parsing five timestamps and the
 * answers of each, only to print them again, was the largest part of the partner API's CPU per page.
 */
const CHANGE_MEMBERS = [
  'reference',
  'test',
  'status',
  'activityId',
  'date',
  'time',
  'participants',
  'customer',
  'paymentReference',
  'channel',
  'unitPriceMinor',
  'currency',
  'priceAtSale',
  'createdAt',
  'expiresAt',
  'cancelledAt',
  'cancellationReason',
  'updatedAt',
] as const;
export type BookingChange = BookingRowOf<(typeof CHANGE_MEMBERS)[number], 'text'>;
const CHANGE_COLUMNS = bookingColumns(CHANGE_MEMBERS, { instants: 'text' });

/**
 * A partner's bookings changed at or after `since`, in the order of their last change, after `cursor`. Only changes
 * of transactions older than every transaction still running are served: a change committing later than one already
 * served always sorts after it, so a client paging on never misses it. `last` is the position of the last change.
 */
export async function listBookingChanges(
  db: Db,
  owner: { accountId: string; partnerId: string; test?: boolean },
  query: { since: Date; cursor: SyncPosition | null; limit: number },
): Promise<{ changes: BookingChange[]; last: SyncPosition | null }> {
  const { rows } = await db.query<BookingChange & { id: number; changeXid: string }>({
    name: 'bookings-sync',
    text: `SELECT b.id AS "id", b.change_xid::text AS "changeXid", ${CHANGE_COLUMNS}
             FROM ${BOOKING_FROM}
            WHERE b.partner_id = $2 AND b.account_id = $1 AND b.updated_at >= $3 AND b.test = $7
              AND b.change_xid < pg_snapshot_xmin(pg_current_snapshot())
              AND ($4::xid8 IS NULL OR (b.change_xid, b.id) > ($4::xid8, $5::bigint))
            ORDER BY b.change_xid, b.id
            LIMIT $6`,
    values: [owner.accountId, owner.partnerId, query.since, query.cursor?.xid ?? null, query.cursor?.id ?? 0, query.limit, owner.test ?? false],
  });
  const last = rows.at(-1);
  return { changes: rows, last: last ? { xid: last.changeXid, id: last.id } : null };
}

/** Moves a live hold's expiry to `minutes` from now (row locked by the caller) and records the extension. */
export async function moveHoldExpiry(db: Db, booking: { accountId: string; id: number }, minutes: number, actor: BookingActor): Promise<Date> {
  const { rows } = await db.query<{ expiresAt: Date }>({
    name: 'booking-hold-extend',
    text: `WITH extended AS (
             UPDATE bookings SET expires_at = now() + make_interval(mins => $3)
              WHERE id = $2 AND ${tenantIs('account_id', '$1')} AND status = 'on_hold'
             RETURNING expires_at
           ), history AS (
             INSERT INTO booking_history (account_id, booking_id, action, actor_kind, partner_id, api_key_id, user_id)
             SELECT $1, $2, 'extended', $4, $5, $6, $7 FROM extended
           )
           SELECT expires_at AS "expiresAt" FROM extended`,
    values: [booking.accountId, booking.id, minutes, ...actorColumns(actor)],
  });
  if (!rows[0]) throw new Error(`hold ${booking.id} was not extended`);
  return rows[0].expiresAt;
}
