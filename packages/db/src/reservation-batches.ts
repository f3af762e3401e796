// Reservations of one timeslot made together. Every booking of a timeslot takes the same row lock, so a popular
// timeslot serialises its bookings, one lock handoff (a waiting backend woken, scheduled, its statement finished) per
// booking. Here the reservations of a timeslot that arrive while one of its statements is in flight wait in the
// process, and the next statement reserves them all: one lock taken per batch instead of one per booking. A timeslot
// nobody else is booking pays nothing: its reservation runs at once, alone, as before.
//
// Each timeslot's lane is a group commit (group-commit.ts) with one batch in flight at a time. A batch of one is the
// single reservation statement (`reserveAlone`, whose refusal the store explains as for any reservation); a larger
// batch takes, in arrival order, the reservations whose running sum of places fits what is free, and the others are
// tried alone afterwards; a larger batch whose statement fails (a booking reference drawn twice) is tried again item
// by item.
import type pg from 'pg';
import type { Reservation, ReservationOutcome } from '@backbone/domain';
import { createGroupCommit, type GroupCommit } from './group-commit.js';
import { COMMIT_WITHOUT_FLUSH } from './pool.js';

/** At most this many reservations in one statement. */
const MAX_BATCH = 64;

/** 'alone': the batch could not take it; the caller reserves it on its own. */
type LaneOutcome = ReservationOutcome | { kind: 'alone' };
type Lane = GroupCommit<Reservation, LaneOutcome>;

/** Per pool, per timeslot: its lane while reservations of it are in flight (removed once the lane is idle). */
const lanesByPool = new WeakMap<pg.Pool, Map<string, Lane>>();

// Test and live reservations take different places (test_booked, booked): they are batched apart.
const timeslotKey = (r: Reservation) => `${r.accountId} ${r.activity.id} ${r.date} ${r.time} ${r.test ? 'test' : 'live'}`;

/**
 * Reserves through the timeslot's lane: at once with `reserveAlone` when nothing of the timeslot is in flight, else
 * in the next batch (or alone, when the batch could not take it).
 */
export async function reserveInLane(
  pool: pg.Pool,
  reservation: Reservation,
  reserveAlone: (r: Reservation) => Promise<ReservationOutcome>,
): Promise<ReservationOutcome> {
  let lanes = lanesByPool.get(pool);
  if (!lanes) lanesByPool.set(pool, (lanes = new Map<string, Lane>()));
  const key = timeslotKey(reservation);
  let lane = lanes.get(key);
  const opened = lane === undefined;
  if (!lane) {
    lane = createGroupCommit<Reservation, LaneOutcome>(async (batch) => (batch.length === 1 ? [await reserveAlone(batch[0]!)] : reserveBatch(pool, batch)), {
      maxBatchSize: MAX_BATCH,
      maxConcurrentBatches: 1,
      retryFailedBatchItemByItem: true,
    });
    lanes.set(key, lane);
  }
  const submitted = lane.submit(reservation);
  if (opened) {
    const opening = lane;
    void opening.drain().then(() => {
      if (lanes.get(key) === opening) lanes.delete(key);
    });
  }
  const outcome = await submitted;
  return outcome.kind === 'alone' ? reserveAlone(reservation) : outcome;
}

/**
 * One statement for reservations of the same timeslot: it locks the timeslot row (if open and not started), takes the
 * longest arrival-order prefix that fits, adds their places to the counter, and inserts their bookings and their
 * booking.created events. Commits without flush, like the single reservation (the use case awaits durability).
 */
async function reserveBatch(pool: pg.Pool, batch: readonly Reservation[]): Promise<LaneOutcome[]> {
  const first = batch[0]!;
  const { rows } = await pool.query<{ reference: string; created_at: Date; expires_at: Date | null; unit_price_minor: string; currency: string }>({
    name: 'bookings-reserve-batch',
    text: `WITH request AS (
             SELECT * FROM unnest($5::text[], $6::int[], $7::text[], $8::jsonb[], $9::text[], $10::jsonb[], $11::uuid[], $12::uuid[],
                                  $13::uuid[], $14::jsonb[], $15::int[], $16::uuid[])
                      WITH ORDINALITY AS r(reference, participants, channel, customer, payment_reference, answers, api_key_id, partner_id,
                                           event_id, event, hold_minutes, created_by_user_id, position)
           ), slot AS (
             SELECT id, capacity - CASE WHEN $17 THEN test_booked ELSE booked END AS free FROM timeslots
              WHERE account_id = $1 AND activity_id = $2 AND local_date = $3 AND local_time = $4
                AND status = 'open' AND starts_at > now() AND ${COMMIT_WITHOUT_FLUSH}
                FOR NO KEY UPDATE
           ), fitting AS (
             SELECT ranked.*, slot.id AS timeslot_id
               FROM slot CROSS JOIN (SELECT request.*, sum(participants) OVER (ORDER BY position) AS running FROM request) AS ranked
              WHERE ranked.running <= slot.free
           ), taken AS (
             UPDATE timeslots t SET booked = t.booked + CASE WHEN $17 THEN 0 ELSE (SELECT sum(participants) FROM fitting) END,
                                    test_booked = t.test_booked + CASE WHEN $17 THEN (SELECT sum(participants) FROM fitting) ELSE 0 END
               FROM slot WHERE t.id = slot.id AND EXISTS (SELECT 1 FROM fitting)
           ), booking AS (
             INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer,
                                   payment_reference, answers, api_key_id, partner_id, status, expires_at, created_by_user_id, test)
             SELECT $1, reference, $2, timeslot_id, channel, participants, customer, payment_reference, answers, api_key_id, partner_id,
                    CASE WHEN hold_minutes IS NULL THEN 'confirmed' ELSE 'on_hold' END, now() + make_interval(mins => hold_minutes),
                    created_by_user_id, $17
               FROM fitting ORDER BY position
             RETURNING reference, created_at, expires_at, unit_price_minor, currency
           ), event AS (
             INSERT INTO outbox_events (account_id, event_id, type, payload)
             SELECT $1, fitting.event_id, 'booking.created', fitting.event || jsonb_build_object('OccurredAt', floor(extract(epoch FROM booking.created_at))::bigint)
               FROM booking JOIN fitting USING (reference)
              ORDER BY fitting.position
           )
           SELECT reference, created_at, expires_at, unit_price_minor, currency FROM booking`,
    values: [
      first.accountId,
      first.activity.id,
      first.date,
      first.time,
      batch.map((r) => r.reference),
      batch.map((r) => r.participants),
      batch.map((r) => r.channel),
      batch.map((r) => JSON.stringify(r.customer)),
      batch.map((r) => r.paymentReference),
      batch.map((r) => JSON.stringify(r.answers)),
      batch.map((r) => r.apiKeyId),
      batch.map((r) => r.partnerId),
      batch.map((r) => r.eventId),
      batch.map((r) => JSON.stringify(r.event)),
      batch.map((r) => r.holdMinutes),
      batch.map((r) => r.createdByUserId),
      first.test,
    ],
  });
  const booked = new Map(rows.map((row) => [row.reference, row]));
  return batch.map((r) => {
    const row = booked.get(r.reference);
    return row
      ? {
          kind: 'booked',
          createdAt: row.created_at,
          expiresAt: row.expires_at,
          price: { unitPriceMinor: Number(row.unit_price_minor), currency: row.currency },
          overbookedBy: 0,
        }
      : { kind: 'alone' };
  });
}
