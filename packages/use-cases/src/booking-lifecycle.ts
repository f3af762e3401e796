// The partner booking lifecycle after the create: look a booking up, confirm a hold, cancel, and the sync feed; and
// the sweeper's release of holds that expired. Each transition reads the booking under its row lock, lets the domain
// decide, and writes the change with its outbox event in the same transaction. A partner sees only its own bookings;
// the operator (partnerId null) every booking of the account.
import { randomUUID } from 'node:crypto';
import {
  isInstant,
  type BookingAnswer,
  type BookingChanges,
  type BookingDetails,
  type CancelBookingRequest,
  type ConfirmBookingRequest,
} from '@backbone/contracts';
import {
  createBookingChangeStore,
  moveHoldExpiry,
  findBooking,
  inTransaction,
  listBookingChanges,
  listTimeslotsWithLapsedHolds,
  markBookingCancelled,
  markBookingConfirmed,
  releaseLapsedHolds,
  type BookingOwner,
  type BookingRecord,
  type Db,
  type Pool,
  type SyncPosition,
} from '@backbone/db';
import {
  actingAs,
  checkBookingAnswers,
  completeCustomer,
  decideCancel,
  decideConfirm,
  decideExtend,
  notFound,
  referencedFileIds,
  ValidationError,
  type BookingActor,
  type BookingState,
  type FieldError,
  type BookingChangeStore,
} from '@backbone/domain';
import { countBookings } from '@backbone/metrics';
import { changeToBookingDetails, toBookingDetails } from './booking-details.js';
import { runIdempotently, type IdempotencyRequest, type Replayable } from './idempotency.js';

export interface BookingRef {
  owner: BookingOwner;
  reference: string;
}

export const stateOf = (booking: BookingRecord): BookingState => ({
  reference: booking.reference,
  status: booking.status,
  expiresAt: booking.expiresAt,
  startsAt: booking.startsAtInstant,
  cancellationCutoffMinutes: booking.cancellationCutoffMinutes,
});

export async function lockedBooking(db: Db, ref: BookingRef): Promise<BookingRecord> {
  const booking = await findBooking(db, ref.owner, ref.reference.toUpperCase(), { lock: true });
  if (!booking) throw notFound('Booking');
  return booking;
}

/** What every booking event says besides its own members. */
function changeEvent(booking: BookingRecord, status: string) {
  return {
    Reference: booking.reference,
    Status: status,
    UpdatedAt: booking.now.toISOString(),
    ...(booking.partnerId ? { PartnerID: booking.partnerId } : {}),
    ...(booking.test ? { Test: true as const } : {}),
  };
}

export async function getBooking(deps: { pool: Pool }, ref: BookingRef): Promise<BookingDetails> {
  const booking = await findBooking(deps.pool, ref.owner, ref.reference.toUpperCase());
  if (!booking) throw notFound('Booking');
  return toBookingDetails(booking);
}

/** The booking keeps the files its answers referenced (locked and checked by checkBookingAnswers), as long as it exists. */
async function keepAnswerFiles(store: BookingChangeStore, booking: BookingRecord, answers: readonly BookingAnswer[]): Promise<void> {
  const ids = referencedFileIds(answers);
  const attached = await store.attachAnswerFiles(booking, ids);
  if (attached !== ids.length) throw new Error(`booking ${booking.reference} took ${attached} of its ${ids.length} files`);
}

/** Members a confirm may repeat but not change: the hold took its places for them. */
function unchangeableMembers(booking: BookingRecord, request: ConfirmBookingRequest): FieldError[] {
  const held = { ActivityID: booking.activityId, Date: booking.date, Time: booking.time, Participants: booking.participants };
  return (Object.keys(held) as Array<keyof typeof held>)
    .filter((member) => request[member] !== undefined && String(request[member]).toLowerCase() !== String(held[member]).toLowerCase())
    .map((member) => ({ field: member, message: `${member} must be the hold's (${held[member]}) or be left out: a confirm cannot move a hold.` }));
}

export async function confirmBooking(
  deps: { pool: Pool },
  ref: BookingRef,
  request: ConfirmBookingRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
  options: {
    beforeConfirm?: (tx: Db) => Promise<void>;
    /** Writes that commit with the confirm, only when this call confirms (not on a repeat): the order.completed event. */
    afterConfirm?: (tx: Db, booking: BookingRecord) => Promise<void>;
  } = {},
): Promise<Replayable<BookingDetails>> {
  // Counted once the transaction committed, and only when this call made the change (not a repeat, not a replay).
  let confirmed: BookingRecord['channel'] | null = null;
  const result = await runIdempotently(deps.pool, ref.owner.accountId, idempotency, (db) =>
    inTransaction(db, async (tx) => {
      confirmed = null;
      // A write of the caller's (OCTO's confirm changes the hold first) that commits or rolls back with the confirm.
      await options.beforeConfirm?.(tx);
      const booking = await lockedBooking(tx, ref);
      if (decideConfirm(stateOf(booking), booking.now) === 'unchanged') return toBookingDetails(booking);
      const mismatched = unchangeableMembers(booking, request);
      if (mismatched.length > 0) throw new ValidationError(mismatched);
      const customer = completeCustomer(booking.customer, request.Customer);
      const store = createBookingChangeStore(tx, booking.test);
      const answers = request.Answers
        ? await checkBookingAnswers(store, booking, actor, booking.activityId, booking.participants, request.Answers)
        : booking.answers;
      const paymentReference = request.PaymentReference ?? booking.paymentReference;
      await markBookingConfirmed(
        tx,
        booking,
        { customer, paymentReference, answers },
        { eventId: randomUUID(), type: 'booking.confirmed', payload: changeEvent(booking, 'confirmed') },
        actor,
      );
      if (request.Answers) await keepAnswerFiles(store, booking, request.Answers);
      await options.afterConfirm?.(tx, booking);
      confirmed = booking.channel;
      return toBookingDetails({ ...booking, status: 'confirmed', expiresAt: null, customer, paymentReference, answers, updatedAt: booking.now });
    }),
  );
  if (confirmed && !result.replayed) countBookings(confirmed, 'confirmed');
  return result;
}

/** Cancels a booking; a partner only until the activity's cutoff, the operator (and the service) at any time. */
export async function cancelBooking(
  deps: { pool: Pool },
  ref: BookingRef,
  request: CancelBookingRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
  /** Another decision than decideCancel's for this actor: the booking page's release of a hold (decideRelease). */
  options: {
    decide?: (state: BookingState, now: Date) => 'cancel' | 'unchanged';
    /** Writes that commit with the cancel, only when this call cancels: the waitlist entry whose offer it withdraws. */
    afterCancel?: (tx: Db, booking: BookingRecord) => Promise<void>;
  } = {},
): Promise<Replayable<BookingDetails>> {
  const decide = options.decide ?? ((state: BookingState, now: Date) => decideCancel(state, now, actingAs(actor)));
  let cancelled: BookingRecord['channel'] | null = null;
  const result = await runIdempotently(deps.pool, ref.owner.accountId, idempotency, (db) =>
    inTransaction(db, async (tx) => {
      cancelled = null;
      const booking = await lockedBooking(tx, ref);
      if (decide(stateOf(booking), booking.now) === 'unchanged') return toBookingDetails(booking);
      const reason = request.Reason ?? null;
      const payload = { ...changeEvent(booking, 'cancelled'), CancelledAt: booking.now.toISOString(), Reason: reason };
      await markBookingCancelled(tx, booking, { reason }, { eventId: randomUUID(), type: 'booking.cancelled', payload }, actor);
      await options.afterCancel?.(tx, booking);
      cancelled = booking.channel;
      return toBookingDetails({
        ...booking,
        status: 'cancelled',
        expiresAt: null,
        cancelledAt: booking.now,
        cancellationReason: reason,
        updatedAt: booking.now,
      });
    }),
  );
  if (cancelled && !result.replayed) countBookings(cancelled, 'cancelled');
  return result;
}

/** Moves a hold's expiry to `minutes` from now: only a hold that has not lapsed (decideExtend). */
export async function extendBookingHold(deps: { pool: Pool }, ref: BookingRef, minutes: number, actor: BookingActor): Promise<BookingDetails> {
  return inTransaction(deps.pool, async (tx) => {
    const booking = await lockedBooking(tx, ref);
    decideExtend(stateOf(booking), booking.now);
    const expiresAt = await moveHoldExpiry(tx, booking, minutes, actor);
    return toBookingDetails({ ...booking, expiresAt, updatedAt: booking.now });
  });
}

/** A sync cursor: where the pass started and the position of the last booking served. Opaque to clients. */
interface SyncCursor {
  since: string;
  position: SyncPosition;
}

const encodeCursor = (cursor: SyncCursor) => Buffer.from(JSON.stringify([cursor.since, cursor.position.xid, cursor.position.id])).toString('base64url');

function decodeCursor(text: string): SyncCursor {
  try {
    const [since, xid, id] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (
      // An instant UpdatedSince would take: any other that JavaScript reads (year -271821) PostgreSQL may not hold.
      typeof since === 'string' &&
      isInstant(since) &&
      typeof xid === 'string' &&
      /^\d{1,20}$/.test(xid) &&
      Number.isSafeInteger(id) &&
      (id as number) >= 0
    ) {
      return { since, position: { xid, id: id as number } };
    }
  } catch {
    // falls through to the validation error
  }
  throw new ValidationError([{ field: 'Cursor', message: 'Cursor must be a Next or Resume value of an earlier answer.' }]);
}

export async function syncBookings(
  deps: { pool: Pool },
  request: { accountId: string; partnerId: string; updatedSince?: string | undefined; cursor?: string | undefined; limit?: number | undefined },
): Promise<BookingChanges> {
  const limit = request.limit ?? 100;
  const cursor = request.cursor ? decodeCursor(request.cursor) : { since: request.updatedSince ?? new Date(0).toISOString(), position: null };
  const { changes, last } = await listBookingChanges(deps.pool, request, { since: new Date(cursor.since), cursor: cursor.position, limit });
  const resume = encodeCursor({ since: cursor.since, position: last ?? cursor.position ?? { xid: '0', id: 0 } });
  return { Bookings: changes.map(changeToBookingDetails), Next: changes.length === limit ? resume : null, Resume: resume };
}

/**
 * The sweeper's pass over up to `timeslotLimit` timeslots with lapsed holds: marks them expired, frees their places,
 * emits booking.expired. One statement per timeslot: a statement that updated several timeslot rows could take their
 * locks in another order than a second sweeper's and deadlock with it. The expirations counted in
 * backbone_bookings_total are the sweeper's: a lapsed hold released inside a booking's or a capacity change's statement
 * (its places wanted at once) is not counted.
 */
export async function expireLapsedHolds(deps: { pool: Pool }, timeslotLimit: number): Promise<{ timeslots: number; released: number }> {
  const due = await listTimeslotsWithLapsedHolds(deps.pool, timeslotLimit);
  let released = 0;
  for (const timeslotId of due) {
    const byChannel = await releaseLapsedHolds(deps.pool, { timeslotId, limit: 1000 });
    for (const [channel, count] of Object.entries(byChannel)) {
      countBookings(channel, 'expired', count);
      released += count;
    }
  }
  return { timeslots: due.length, released };
}
