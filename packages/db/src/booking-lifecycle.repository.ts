// The booking lifecycle in SQL: a booking as a partner (or the operator) reads it, the transitions (confirm, cancel,
// expiry) each with its outbox event in the same transaction, the release of lapsed holds, and the sync feed.
// Lock order everywhere: the booking rows first, then their timeslot's row, so two transitions never deadlock.
import { formatInZone, type BookingActor, type BookingStatus } from '@backbone/domain';
import { isoInstantSql } from './iso-instant.js';
import { tenantIs } from './tenant-check.js';
import { COMMIT_WITHOUT_FLUSH, type Db } from './pool.js';

/** One booking with everything its transitions and its answer need. */
export interface BookingRecord {
  id: number;
  accountId: string;
  partnerId: string | null;
  reference: string;
  status: BookingStatus;
  channel: 'ota' | 'online' | 'pos';
  activityId: string;
  activityInternalId: number;
  timeslotId: number;
  date: string;
  time: string;
  /** ISO 8601 in the activity's zone. */
  startsAt: string;
  startsAtInstant: Date;
  participants: number;
  customer: Record<string, unknown>;
  paymentReference: string | null;
  answers: unknown[];
  expiresAt: Date | null;
  cancelledAt: Date | null;
  cancellationReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  cancellationCutoffMinutes: number;
  /** The activity's per-booking maximum of participants. */
  maxParticipants: number;
  /** The price as sold (minor units per participant), its currency, and whether it was recorded at the sale. */
  unitPriceMinor: number;
  currency: string;
  priceAtSale: boolean;
  note: string | null;
  checkedInAt: Date | null;
  /** The database's clock when the booking was read: transitions are judged against it, not the app's. */
  now: Date;
}

interface BookingRow {
  id: number;
  account_id: string;
  partner_id: string | null;
  reference: string;
  status: BookingStatus;
  channel: 'ota' | 'online' | 'pos';
  activity_uuid: string;
  activity_id: number;
  timeslot_id: number;
  local_date: string;
  local_time: string;
  starts_at: Date;
  time_zone: string;
  participants: number;
  customer: Record<string, unknown>;
  payment_reference: string | null;
  answers: unknown[];
  expires_at: Date | null;
  cancelled_at: Date | null;
  cancellation_reason: string | null;
  created_at: Date;
  updated_at: Date;
  cancellation_cutoff_minutes: number;
  max_participants: number;
  unit_price_minor: string;
  currency: string;
  price_source: 'sale' | 'migration';
  note: string | null;
  checked_in_at: Date | null;
  now: Date;
}

const BOOKING_COLUMNS = `b.id, b.account_id, b.partner_id, b.reference, b.status, b.channel, a.activity_id AS activity_uuid, b.activity_id,
       b.timeslot_id, to_char(t.local_date, 'YYYY-MM-DD') AS local_date, to_char(t.local_time, 'HH24:MI') AS local_time,
       t.starts_at, a.time_zone, b.participants, b.customer, b.payment_reference, b.answers, b.expires_at, b.cancelled_at,
       b.cancellation_reason, b.created_at, b.updated_at, a.cancellation_cutoff_minutes, a.max_participants, b.unit_price_minor,
       b.currency, b.price_source, b.note, b.checked_in_at, now() AS now`;
const BOOKING_FROM = `bookings b JOIN timeslots t ON t.id = b.timeslot_id JOIN activities a ON a.account_id = b.account_id AND a.id = b.activity_id`;

function toRecord(r: BookingRow): BookingRecord {
  return {
    id: r.id,
    accountId: r.account_id,
    partnerId: r.partner_id,
    reference: r.reference,
    status: r.status,
    channel: r.channel,
    activityId: r.activity_uuid,
    activityInternalId: r.activity_id,
    timeslotId: r.timeslot_id,
    date: r.local_date,
    time: r.local_time,
    startsAt: formatInZone(r.starts_at, r.time_zone),
    startsAtInstant: r.starts_at,
    participants: r.participants,
    customer: r.customer,
    paymentReference: r.payment_reference,
    answers: r.answers,
    expiresAt: r.expires_at,
    cancelledAt: r.cancelled_at,
    cancellationReason: r.cancellation_reason,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    cancellationCutoffMinutes: r.cancellation_cutoff_minutes,
    maxParticipants: r.max_participants,
    unitPriceMinor: Number(r.unit_price_minor),
    currency: r.currency,
    priceAtSale: r.price_source === 'sale',
    note: r.note,
    checkedInAt: r.checked_in_at,
    now: r.now,
  };
}

/** Who is asking: a partner sees only its own bookings; the operator (partnerId null) every booking of the account. */
export interface BookingOwner {
  accountId: string;
  partnerId: string | null;
}

/**
 * The booking with this reference, if `owner` may see it; `lock` takes its row lock (inside a transaction) before the
 * transition that follows reads it.
 */
export async function findBooking(db: Db, owner: BookingOwner, reference: string, options: { lock?: boolean } = {}): Promise<BookingRecord | null> {
  const { rows } = await db.query<BookingRow>({
    name: options.lock ? 'booking-find-locked' : 'booking-find',
    text: `SELECT ${BOOKING_COLUMNS} FROM ${BOOKING_FROM}
            WHERE b.reference = $2 AND ${tenantIs('b.account_id', '$1')} AND ($3::uuid IS NULL OR b.partner_id = $3)
            ${options.lock ? 'FOR UPDATE OF b' : ''}`,
    values: [owner.accountId, reference, owner.partnerId],
  });
  return rows[0] ? toRecord(rows[0]) : null;
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
             UPDATE timeslots SET booked = booked - $4 WHERE id = (SELECT timeslot_id FROM cancelled) AND $5
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
             RETURNING b.account_id, b.partner_id, b.reference, b.channel, b.timeslot_id, b.participants, b.expires_at, b.updated_at
           ), per_slot AS (
             SELECT timeslot_id, sum(participants)::int AS n FROM lapsed GROUP BY timeslot_id
           ), released AS (
             UPDATE timeslots t SET booked = t.booked - per_slot.n FROM per_slot WHERE t.id = per_slot.timeslot_id AND ${COMMIT_WITHOUT_FLUSH}
           ), events AS (
             INSERT INTO outbox_events (account_id, event_id, type, payload)
             SELECT account_id, gen_random_uuid(), 'booking.expired',
                    jsonb_strip_nulls(jsonb_build_object('PartnerID', partner_id)) || jsonb_build_object(
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
 * written by PostgreSQL (isoInstantSql) and the status is the effective one: a page is 500 rows, and parsing five
 * timestamps and the answers of each, only to print them again, was the largest part of the partner API's CPU per page.
 */
export interface BookingChange {
  reference: string;
  /** The domain's effectiveStatus at the statement's clock: a hold past its expiry is expired, marked or not. */
  status: BookingStatus;
  activityId: string;
  date: string;
  time: string;
  participants: number;
  customer: Record<string, unknown>;
  paymentReference: string | null;
  channel: 'ota' | 'online' | 'pos';
  unitPriceMinor: number;
  currency: string;
  priceAtSale: boolean;
  createdAt: string;
  expiresAt: string | null;
  cancelledAt: string | null;
  cancellationReason: string | null;
  updatedAt: string;
}

/**
 * A partner's bookings changed at or after `since`, in the order of their last change, after `cursor`. Only changes
 * of transactions older than every transaction still running are served: a change committing later than one already
 * served always sorts after it, so a client paging on never misses it. `last` is the position of the last change.
 */
export async function listBookingChanges(
  db: Db,
  owner: { accountId: string; partnerId: string },
  query: { since: Date; cursor: SyncPosition | null; limit: number },
): Promise<{ changes: BookingChange[]; last: SyncPosition | null }> {
  const { rows } = await db.query<BookingChange & { id: number; changeXid: string }>({
    name: 'bookings-sync',
    text: `SELECT b.id AS "id", b.change_xid::text AS "changeXid", b.reference AS "reference",
                  CASE WHEN b.status = 'on_hold' AND b.expires_at <= now() THEN 'expired' ELSE b.status END AS "status",
                  a.activity_id AS "activityId", to_char(t.local_date, 'YYYY-MM-DD') AS "date", to_char(t.local_time, 'HH24:MI') AS "time",
                  b.participants AS "participants", b.customer AS "customer", b.payment_reference AS "paymentReference", b.channel AS "channel",
                  b.unit_price_minor::float8 AS "unitPriceMinor", b.currency AS "currency", b.price_source = 'sale' AS "priceAtSale",
                  ${isoInstantSql('b.created_at')} AS "createdAt", ${isoInstantSql('b.expires_at')} AS "expiresAt", ${isoInstantSql('b.cancelled_at')} AS "cancelledAt",
                  b.cancellation_reason AS "cancellationReason", ${isoInstantSql('b.updated_at')} AS "updatedAt"
             FROM ${BOOKING_FROM}
            WHERE b.partner_id = $2 AND b.account_id = $1 AND b.updated_at >= $3
              AND b.change_xid < pg_snapshot_xmin(pg_current_snapshot())
              AND ($4::xid8 IS NULL OR (b.change_xid, b.id) > ($4::xid8, $5::bigint))
            ORDER BY b.change_xid, b.id
            LIMIT $6`,
    values: [owner.accountId, owner.partnerId, query.since, query.cursor?.xid ?? null, query.cursor?.id ?? 0, query.limit],
  });
  const last = rows.at(-1);
  return { changes: rows, last: last ? { xid: last.changeXid, id: last.id } : null };
}
