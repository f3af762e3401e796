// Changes to a live booking in SQL: the timeslots a change touches, locked in id order (two moves in opposite
// directions between the same two timeslots lock them in the same order, so they queue instead of deadlocking), and
// the change itself: the places moved, the booking rewritten, its booking.updated event and its history row, in one
// statement. The caller holds the booking's row lock (booking first, then timeslots, as every transition does).
import type { BookingActor, BookingChangeStore, BookingChangeWrite, BookingHistoryEntry, ChangeActivity, ChangeTimeslot } from '@backbone/domain';
import type { BookingRecord } from './booking-row.js';
import { actorColumns } from './booking-lifecycle.repository.js';
import { SHOWN_STATUS } from './booking-row.js';
import { attachFilesToBooking, findAnswerFiles } from './files.repository.js';
import { releaseLapsedHolds } from './booking-lifecycle.repository.js';
import { listOfferedActivityQuestions } from './questions.repository.js';
import { LAPSED_HOLDS, LAPSED_TEST_HOLDS } from './lapsed-holds.js';
import { tenantIs } from './tenant-check.js';
import type { Db } from './pool.js';

/** A change's persistence within the transaction `tx` that holds the booking's row lock. */
/** `test`: the booking changed is a sandbox one, whose places are the timeslots' test places. */
export function createBookingChangeStore(tx: Db, test = false): BookingChangeStore {
  return {
    findActivity: (accountId, activityId, options) => findActivityForChange(tx, accountId, activityId, options),
    findTimeslotId: (accountId, activityInternalId, date, time) => findTimeslotId(tx, accountId, activityInternalId, date, time),
    findQuestions: async (accountId, activityId) => (await listOfferedActivityQuestions(tx, accountId, activityId)) ?? [],
    findAnswerFiles: (owner, ids) => findAnswerFiles(tx, owner, ids, { lock: true }),
    lockTimeslots: (accountId, ids) => lockTimeslotsForChange(tx, accountId, ids, test),
    releaseLapsedHolds: async (timeslotId) => {
      await releaseLapsedHolds(tx, { timeslotId, limit: 1000 });
    },
    writeChange: async (booking, write, event, history) => {
      await writeBookingChange(tx, { ...booking, test }, write, event, history);
    },
    attachAnswerFiles: (booking, fileIds) => attachFilesToBooking(tx, booking.accountId, { id: booking.id }, fileIds),
  };
}

export async function findActivityForChange(db: Db, accountId: string, activityId: string, options: { anyShopfront: boolean }): Promise<ChangeActivity | null> {
  const { rows } = await db.query<{ id: number; activity_id: string; max_participants: number }>({
    name: 'booking-change-activity',
    text: `SELECT id, activity_id, max_participants FROM activities
            WHERE account_id = $1 AND activity_id = $2 AND active AND (in_shopfront OR $3)`,
    values: [accountId, activityId, options.anyShopfront],
  });
  const row = rows[0];
  return row ? { id: Number(row.id), activityId: row.activity_id, maxParticipants: row.max_participants } : null;
}

/** The id of the activity's timeslot at a local date and time, if there is one. */
export async function findTimeslotId(db: Db, accountId: string, activityInternalId: number, date: string, time: string): Promise<number | null> {
  const { rows } = await db.query<{ id: string }>({
    name: 'booking-change-timeslot',
    text: `SELECT id FROM timeslots WHERE account_id = $1 AND activity_id = $2 AND local_date = $3 AND local_time = $4`,
    values: [accountId, activityInternalId, date, time],
  });
  return rows[0] ? Number(rows[0].id) : null;
}

/** The timeslots with these ids, each under its row lock, taken in id order. */
export async function lockTimeslotsForChange(db: Db, accountId: string, ids: readonly number[], test = false): Promise<Map<number, ChangeTimeslot>> {
  const { rows } = await db.query<{
    id: string;
    date: string;
    time: string;
    status: 'open' | 'closed';
    started: boolean;
    capacity: number;
    booked: number;
    lapsed: number;
  }>({
    name: 'booking-change-lock-timeslots',
    text: `SELECT t.id, to_char(t.local_date, 'YYYY-MM-DD') AS date, to_char(t.local_time, 'HH24:MI') AS time, t.status,
                  t.starts_at <= now() AS started, t.capacity, CASE WHEN $3 THEN t.test_booked ELSE t.booked END AS booked,
                  CASE WHEN $3 THEN ${LAPSED_TEST_HOLDS} ELSE ${LAPSED_HOLDS} END AS lapsed
             FROM timeslots t
            WHERE t.id = ANY($2::bigint[]) AND ${tenantIs('t.account_id', '$1')}
            ORDER BY t.id
              FOR NO KEY UPDATE OF t`,
    values: [accountId, ids, test],
  });
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id) }]));
}

/**
 * Writes a change of a locked booking: the places (the timeslots locked by lockTimeslotsForChange), the booking, its
 * booking.updated event and its history row. The timeslots' CHECK (booked within capacity) is the backstop of the
 * checks made under the locks. Answers the booking's new price (a move to another activity takes that one's).
 */
export async function writeBookingChange(
  db: Db,
  booking: { accountId: string; id: number; test: boolean },
  write: BookingChangeWrite,
  event: { eventId: string; payload: Record<string, unknown> },
  history: BookingHistoryEntry,
): Promise<{ unitPriceMinor: number; currency: string; priceAtSale: boolean }> {
  const places = [...write.places].filter(([, delta]) => delta !== 0);
  const { rows } = await db.query<{ unit_price_minor: string; currency: string; price_source: 'sale' | 'migration' }>({
    name: 'booking-change',
    text: `WITH places AS (
             UPDATE timeslots t SET booked = t.booked + CASE WHEN $21 THEN 0 ELSE d.delta END,
                                    test_booked = t.test_booked + CASE WHEN $21 THEN d.delta ELSE 0 END
               FROM unnest($3::bigint[], $4::int[]) AS d(id, delta)
              WHERE t.id = d.id AND ${tenantIs('t.account_id', '$1')}
           ), changed AS (
             UPDATE bookings SET activity_id = $5, timeslot_id = $6, participants = $7, customer = $8, answers = $9, note = $10,
                    payment_reference = $20, price_override_minor = $22, price_reason = $23
              WHERE id = $2 AND ${tenantIs('account_id', '$1')}
             RETURNING unit_price_minor, currency, price_source
           ), history AS (
             INSERT INTO booking_history (account_id, booking_id, action, actor_kind, partner_id, api_key_id, user_id, reason, changes)
             VALUES ($1, $2, $13, $14, $15, $16, $17, $18, $19)
           ), event AS (
             INSERT INTO outbox_events (account_id, event_id, type, payload)
             VALUES ($1, $11, 'booking.updated', $12::jsonb || jsonb_build_object('OccurredAt', floor(extract(epoch FROM now()))::bigint))
           )
           SELECT unit_price_minor, currency, price_source FROM changed`,
    values: [
      booking.accountId,
      booking.id,
      places.map(([id]) => id),
      places.map(([, delta]) => delta),
      write.activityInternalId,
      write.timeslotId,
      write.participants,
      JSON.stringify(write.customer),
      JSON.stringify(write.answers),
      write.note,
      event.eventId,
      JSON.stringify(event.payload),
      history.action,
      ...actorColumns(history.actor),
      history.reason,
      JSON.stringify(history.changes),
      write.paymentReference,
      booking.test,
      write.price.overrideMinor,
      write.price.reason,
    ],
  });
  const row = rows[0]!;
  return { unitPriceMinor: Number(row.unit_price_minor), currency: row.currency, priceAtSale: row.price_source === 'sale' };
}

/**
 * The price set by hand on a sale at the desk, written in the sale's transaction with its history row (repriced: from
 * the list price to the total charged, and why).
 */
export async function recordSalePrice(
  db: Db,
  accountId: string,
  reference: string,
  price: { overrideMinor: number; reason: string; listTotalMinor: number; currency: string },
  actor: BookingActor,
): Promise<void> {
  const changes = {
    Price: { From: { Amount: price.listTotalMinor, Currency: price.currency }, To: { Amount: price.overrideMinor, Currency: price.currency } },
  };
  await db.query({
    name: 'booking-sale-price',
    text: `WITH priced AS (
             UPDATE bookings SET price_override_minor = $3, price_reason = $4
              WHERE ${tenantIs('account_id', '$1')} AND reference = $2
             RETURNING id
           )
           INSERT INTO booking_history (account_id, booking_id, action, actor_kind, partner_id, api_key_id, user_id, reason, changes)
           SELECT $1, id, 'repriced', $5, $6, $7, $8, $4, $9::jsonb FROM priced`,
    values: [accountId, reference, price.overrideMinor, price.reason, ...actorColumns(actor), JSON.stringify(changes)],
  });
}

/** How a sale at the desk was paid, written in the sale's transaction. */
export async function recordPaymentMethod(db: Db, accountId: string, reference: string, method: 'cash' | 'card' | 'other'): Promise<void> {
  await db.query({
    name: 'booking-payment-method',
    text: `UPDATE bookings SET payment_method = $3 WHERE ${tenantIs('account_id', '$1')} AND reference = $2`,
    values: [accountId, reference, method],
  });
}

/**
 * Records a locked booking's check-in (`arrived`) of `participants` of the party (null: all of it) or clears it, with
 * its history row, in one statement. A check-in keeps its first time; a later one changes only the count, which the
 * history row records (Checked in: 4 → 3). Not an event: partners are not told who walked in. The bookings_touch
 * trigger still moves the booking in the partners' sync feed, which then shows it unchanged.
 */
export async function writeCheckIn(db: Db, booking: BookingRecord, arrived: boolean, actor: BookingActor, participants: number | null = null): Promise<void> {
  const counted = (n: number | null) => Math.min(n ?? booking.participants, booking.participants);
  const changes =
    arrived && booking.checkedInAt !== null
      ? { CheckedIn: { From: counted(booking.checkedInParticipants), To: counted(participants) } }
      : arrived && participants !== null
        ? { CheckedIn: { From: 0, To: participants } }
        : {};
  await db.query({
    name: 'booking-check-in',
    text: `WITH changed AS (
             UPDATE bookings SET checked_in_at = CASE WHEN $3 THEN coalesce(checked_in_at, now()) END,
                                 checked_in_participants = CASE WHEN $3 THEN $8::int END
              WHERE id = $2 AND ${tenantIs('account_id', '$1')}
             RETURNING id
           )
           INSERT INTO booking_history (account_id, booking_id, action, actor_kind, partner_id, api_key_id, user_id, changes)
           SELECT $1, id, CASE WHEN $3 THEN 'checked_in' ELSE 'check_in_undone' END, $4, $5, $6, $7, $9::jsonb FROM changed`,
    values: [booking.accountId, booking.id, arrived, ...actorColumns(actor), participants, JSON.stringify(changes)],
  });
}

/** One row of a booking's history as stored (creation and expiry are read from the booking itself). */
export interface StoredHistoryEntry {
  at: Date;
  action: string;
  actorKind: 'partner' | 'operator' | 'customer' | 'system';
  partnerId: string | null;
  partnerName: string | null;
  apiKeyId: string | null;
  apiKeyName: string | null;
  userId: string | null;
  userEmail: string | null;
  reason: string | null;
  changes: Record<string, { From: unknown; To: unknown }>;
}

/** How a booking began, for its history: when, by whom, and its status as shown (a lapsed hold is expired). */
export interface BookingOrigin {
  id: number;
  createdAt: Date;
  status: 'on_hold' | 'confirmed' | 'cancelled' | 'expired';
  expiresAt: Date | null;
  channel: 'ota' | 'online' | 'pos';
  partnerId: string | null;
  partnerName: string | null;
  apiKeyId: string | null;
  userId: string | null;
  userEmail: string | null;
}

export async function findBookingOrigin(db: Db, accountId: string, reference: string): Promise<BookingOrigin | null> {
  const { rows } = await db.query<BookingOrigin>({
    name: 'booking-origin',
    text: `SELECT b.id, b.created_at AS "createdAt", ${SHOWN_STATUS} AS status, b.expires_at AS "expiresAt", b.channel, b.partner_id AS "partnerId",
                  p.name AS "partnerName", b.api_key_id AS "apiKeyId", b.created_by_user_id AS "userId", u.email AS "userEmail"
             FROM bookings b
             LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id
             LEFT JOIN operator_users u ON u.account_id = b.account_id AND u.id = b.created_by_user_id
            WHERE b.reference = $2 AND ${tenantIs('b.account_id', '$1')}`,
    values: [accountId, reference],
  });
  const row = rows[0];
  return row ? { ...row, id: Number(row.id) } : null;
}

/** A booking's recorded changes, oldest first, with the names of who made them. */
export async function listBookingHistory(db: Db, accountId: string, bookingId: number): Promise<StoredHistoryEntry[]> {
  const { rows } = await db.query<StoredHistoryEntry>({
    name: 'booking-history',
    text: `SELECT h.at, h.action, h.actor_kind AS "actorKind", h.partner_id AS "partnerId", p.name AS "partnerName",
                  h.api_key_id AS "apiKeyId", k.name AS "apiKeyName", h.user_id AS "userId", u.email AS "userEmail",
                  h.reason, h.changes
             FROM booking_history h
             LEFT JOIN partners p ON p.account_id = h.account_id AND p.id = h.partner_id
             LEFT JOIN api_keys k ON k.account_id = h.account_id AND k.id = h.api_key_id
             LEFT JOIN operator_users u ON u.account_id = h.account_id AND u.id = h.user_id
            WHERE h.booking_id = $2 AND ${tenantIs('h.account_id', '$1')}
            ORDER BY h.id`,
    values: [accountId, bookingId],
  });
  return rows;
}
