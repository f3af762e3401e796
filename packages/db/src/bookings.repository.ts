// Bookings. The reservation is one statement: a conditional UPDATE takes the places only if the timeslot is open,
// not started and has room (PostgreSQL re-checks the condition on the latest row version, so concurrent bookings
// queue on the row and never oversell; the CHECK on timeslots is the backstop; an owner's explicit overbooking is the
// same statement with the room condition waived, counting how far past the capacity it sold), and data-modifying CTEs insert the
// booking and its booking.created outbox event in the same statement, so the row lock is held for one round trip.
// It commits without waiting for the disk (COMMIT_WITHOUT_FLUSH), so the next booking of the timeslot does not wait
// for this one's flush; the use case awaits durability before it answers.
import type { BookableActivity, BookingStore, Reservation, ReservationOutcome, TimeslotState, WaiverQuestion } from '@backbone/domain';
import { releaseLapsedHolds } from './booking-lifecycle.repository.js';
import { BOOKING_FROM, bookingColumns, PARTNER_JOIN, toBookingRecord, type BookingRowOf } from './booking-row.js';
import { attachFilesToBooking, findAnswerFiles } from './files.repository.js';
import { LAPSED_HOLDS, LAPSED_TEST_HOLDS } from './lapsed-holds.js';
import pg from 'pg';
import { COMMIT_WITHOUT_FLUSH, withSavepoint, type Db } from './pool.js';
import { reserveInLane } from './reservation-batches.js';

const UNIQUE_VIOLATION = '23505';

/**
 * The booking store over `db`: the pool, where the reservation statement commits on its own, or a transaction's
 * client, when the use case must commit other work with the booking (its Idempotency-Key answer). In a transaction a
 * refused insert would abort everything, so each reservation runs under a savepoint there, and a reference drawn
 * twice costs only that savepoint.
 */
export function createBookingStore(db: Db): BookingStore {
  return {
    findActivity: (accountId, activityId, findOptions) => findBookableActivity(db, accountId, activityId, findOptions),
    findAnswerFiles: (owner, ids) => findAnswerFiles(db, owner, ids, { lock: !(db instanceof pg.Pool) }),
    async reserve(reservation) {
      let outcome: ReservationOutcome;
      try {
        // On the pool, the reservations of a timeslot that arrive together are made together (reservation-batches.ts).
        // A booking that takes files does so in the transaction that locked them.
        if (reservation.fileIds.length > 0 && db instanceof pg.Pool) throw new Error('a booking that references files is made in a transaction');
        // The lanes batch what fits; an owner's overbooking is the desk's, made in the sale's transaction.
        if (reservation.overbook && db instanceof pg.Pool) throw new Error('an overbooking is made in a transaction');
        outcome =
          db instanceof pg.Pool
            ? await reserveInLane(db, reservation, (r) => reserveOnce(db, r))
            : await withSavepoint(db, async (inner) => {
                const reserved = await reserveOnce(inner, reservation);
                if (reserved.kind === 'booked' && reservation.fileIds.length > 0) {
                  const attached = await attachFilesToBooking(inner, reservation.accountId, { reference: reservation.reference }, reservation.fileIds);
                  if (attached !== reservation.fileIds.length)
                    throw new Error(`booking ${reservation.reference} took ${attached} of its ${reservation.fileIds.length} files`);
                }
                return reserved;
              });
      } catch (error) {
        const pgError = error as { code?: string; constraint?: string };
        if (pgError.code === UNIQUE_VIOLATION && pgError.constraint === 'bookings_reference_key') return { kind: 'reference-taken' };
        throw error;
      }
      // Too full, but some of the places belong to holds that have expired: they are free from that instant, so they
      // are released now (whether or not the sweeper has come by) and the caller sees them as available.
      if (outcome.kind === 'refused' && outcome.timeslot && outcome.timeslot.lapsed > 0 && outcome.timeslot.id !== undefined) {
        await releaseLapsedHolds(db, { timeslotId: outcome.timeslot.id, limit: 1000 });
        return { kind: 'refused', timeslot: { ...outcome.timeslot, available: outcome.timeslot.available + outcome.timeslot.lapsed, lapsed: 0 } };
      }
      return outcome;
    },
  };
}

async function findBookableActivity(
  db: Db,
  accountId: string,
  activityId: string,
  options: { withQuestions: boolean; anyShopfront: boolean },
): Promise<BookableActivity | null> {
  const { rows } = await db.query<{ id: number; activity_id: string; max_participants: number; questions: WaiverQuestion[] | null }>({
    name: 'bookings-find-activity',
    text: `SELECT a.id, a.activity_id, a.max_participants,
                  CASE WHEN $3 THEN (
                    SELECT coalesce(json_agg(json_build_object('id', q.id, 'question', q.question, 'type', q.type, 'required', q.required,
                                                               'options', q.options, 'perParticipant', q.per_participant)
                                             ORDER BY q.position, q.id), '[]'::json)
                      FROM waiver_questions q WHERE q.account_id = a.account_id AND q.activity_id = a.id)
                  END AS questions
             FROM activities a
            WHERE a.account_id = $1 AND a.activity_id = $2 AND a.active AND (a.in_shopfront OR $4)`,
    values: [accountId, activityId, options.withQuestions, options.anyShopfront],
  });
  const row = rows[0];
  return row ? { id: row.id, activityId: row.activity_id, maxParticipants: row.max_participants, questions: row.questions } : null;
}

async function reserveOnce(db: Db, r: Reservation): Promise<ReservationOutcome> {
  const { rows } = await db.query<{ created_at: Date; expires_at: Date | null; unit_price_minor: string; currency: string; over: number }>({
    name: 'bookings-reserve',
    text: `WITH slot AS (
             UPDATE timeslots SET booked = booked + CASE WHEN $17 THEN 0 ELSE $5 END, test_booked = test_booked + CASE WHEN $17 THEN $5 ELSE 0 END,
                                  overbooked = CASE WHEN $18 THEN greatest(overbooked, booked + $5 - capacity) ELSE overbooked END
              WHERE account_id = $1 AND activity_id = $2 AND local_date = $3 AND local_time = $4
                AND status = 'open' AND starts_at > now() AND (CASE WHEN $17 THEN test_booked ELSE booked END + $5 <= capacity OR $18)
                AND ${COMMIT_WITHOUT_FLUSH}
             RETURNING id, greatest(0, booked - capacity) - greatest(0, booked - $5 - capacity) AS over
           ), booking AS (
             INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer,
                                   payment_reference, answers, api_key_id, partner_id, status, expires_at, created_by_user_id, test)
             SELECT $1, $6, $2, slot.id, $7, $5, $8, $9, $10, $11, $14,
                    CASE WHEN $15::int IS NULL THEN 'confirmed' ELSE 'on_hold' END, now() + make_interval(mins => $15::int), $16, $17
               FROM slot
             RETURNING created_at, expires_at, unit_price_minor, currency
           ), event AS (
             INSERT INTO outbox_events (account_id, event_id, type, payload)
             SELECT $1, $12, 'booking.created', $13::jsonb || jsonb_build_object('OccurredAt', floor(extract(epoch FROM created_at))::bigint)
               FROM booking
           )
           SELECT created_at, expires_at, unit_price_minor, currency, (SELECT over FROM slot) AS over FROM booking`,
    values: [
      r.accountId,
      r.activity.id,
      r.date,
      r.time,
      r.participants,
      r.reference,
      r.channel,
      JSON.stringify(r.customer),
      r.paymentReference,
      JSON.stringify(r.answers),
      r.apiKeyId,
      r.eventId,
      JSON.stringify(r.event),
      r.partnerId,
      r.holdMinutes,
      r.createdByUserId,
      r.test,
      // An owner's overbooking takes the places whatever is left (never test places: the desk sells live ones).
      r.overbook === true && !r.test,
    ],
  });
  const booked = rows[0];
  if (booked)
    return {
      kind: 'booked',
      createdAt: booked.created_at,
      expiresAt: booked.expires_at,
      price: { unitPriceMinor: Number(booked.unit_price_minor), currency: booked.currency },
      overbookedBy: booked.over,
    };
  return { kind: 'refused', timeslot: await timeslotState(db, r) };
}

/** Why a reservation was refused: read only after the conditional update matched nothing. */
async function timeslotState(db: Db, r: Reservation): Promise<TimeslotState | null> {
  const { rows } = await db.query<{ id: number; status: 'open' | 'closed'; started: boolean; available: number; lapsed: number }>({
    name: 'bookings-timeslot-state',
    text: `SELECT t.id, t.status, t.starts_at <= now() AS started, greatest(0, t.capacity - CASE WHEN $5 THEN t.test_booked ELSE t.booked END) AS available,
                  CASE WHEN $5 THEN ${LAPSED_TEST_HOLDS} ELSE ${LAPSED_HOLDS} END AS lapsed
             FROM timeslots t WHERE t.account_id = $1 AND t.activity_id = $2 AND t.local_date = $3 AND t.local_time = $4`,
    values: [r.accountId, r.activity.id, r.date, r.time, r.test],
  });
  return rows[0] ?? null;
}

/** What the admin CLI lists of a booking (its status as shown: a hold past its expiry is expired). */
const LISTED = [
  'reference',
  'status',
  'channel',
  'partnerId',
  'partnerName',
  'activityId',
  'activityName',
  'date',
  'time',
  'startsAtInstant',
  'timeZone',
  'participants',
  'customer',
  'paymentReference',
  'answers',
  'createdAt',
  'expiresAt',
  'cancelledAt',
  'cancellationReason',
] as const;
export type ListedBooking = BookingRowOf<(typeof LISTED)[number]> & { startsAt: string };

/** The account's bookings of every channel, by timeslot; `from`/`to` bound the timeslots' local dates. */
export async function listBookings(db: Db, accountId: string, range: { from?: string | null; to?: string | null } = {}): Promise<ListedBooking[]> {
  const { rows } = await db.query<BookingRowOf<(typeof LISTED)[number]>>(
    `SELECT ${bookingColumns(LISTED)}
       FROM ${BOOKING_FROM} ${PARTNER_JOIN}
      WHERE b.account_id = $1 AND ($2::date IS NULL OR t.local_date >= $2::date) AND ($3::date IS NULL OR t.local_date <= $3::date)
      ORDER BY t.starts_at, b.created_at, b.id`,
    [accountId, range.from ?? null, range.to ?? null],
  );
  return rows.map(toBookingRecord);
}
