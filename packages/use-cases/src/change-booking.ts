// Change a live booking: move it to another timeslot (of its activity, or of another one), change the party size,
// the customer, the waiver answers, the operator's note or the partner's payment reference. One transaction under the
// booking's row lock, in which the domain decides and writes through the change store (applyBookingChange): the places
// leave the old timeslot and take the new one with the same rule as a create, so the booking fits or nothing changes.
// Partners (the partner API, OCTO) may change until the activity's cancellation cutoff, the operator at any time. A
// request that changes nothing answers the booking as it is, and records nothing.
import type { BookingChangeMember, BookingDetails } from '@backbone/contracts';
import { createBookingChangeStore, findBooking, inTransaction, type BookingRecord, type Db, type Pool } from '@backbone/db';
import { applyBookingChange, type BookingActor, type BookingChangeRequest } from '@backbone/domain';
import { lockedBooking, type BookingRef } from './booking-lifecycle.js';
import { toBookingDetails } from './booking-details.js';
import { awaitCommittedDurable, runIdempotently, type IdempotencyRequest, type Replayable } from './idempotency.js';

export type { BookingChangeRequest };

export interface BookingChangeOptions {
  /** Writes of the caller's own (OCTO's unit items) that commit or roll back with the change, under its row lock. */
  withinChange?: (tx: Db, booking: BookingRecord) => Promise<void>;
  /** Writes of the caller's own after a change that changed something (the audit of a price set by hand), in its transaction. */
  afterChange?: (tx: Db, before: BookingRecord, after: BookingRecord, changed: readonly BookingChangeMember[]) => Promise<void>;
}

export async function changeBooking(
  deps: { pool: Pool },
  ref: BookingRef,
  request: BookingChangeRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
  options: BookingChangeOptions = {},
): Promise<Replayable<BookingDetails>> {
  let releasedLapsedHolds = false;
  const result = await runIdempotently(deps.pool, ref.owner.accountId, idempotency, (db) =>
    inTransaction(db, async (tx) => {
      const change = await changeBookingWithin(tx, ref, request, actor, options);
      releasedLapsedHolds = change.releasedLapsedHolds;
      return change.booking;
    }),
  );
  // Releasing lapsed holds commits without waiting for the disk (see releaseLapsedHolds); this answer must not.
  if (releasedLapsedHolds) await awaitCommittedDurable(deps.pool);
  return result;
}

/**
 * The change within the caller's transaction (changeBooking's, or OCTO's confirm, which changes and confirms in one).
 * When it released lapsed holds the transaction commits without waiting for the disk: the caller awaits durability
 * before it answers.
 */
export async function changeBookingWithin(
  tx: Db,
  ref: BookingRef,
  request: BookingChangeRequest,
  actor: BookingActor,
  options: BookingChangeOptions = {},
): Promise<{ booking: BookingDetails; releasedLapsedHolds: boolean }> {
  const booking = await lockedBooking(tx, ref);
  // The caller's own writes first: the change then decides (changeable by this actor now?) and fails the whole transaction.
  await options.withinChange?.(tx, booking);
  const { changed, releasedLapsedHolds } = await applyBookingChange(createBookingChangeStore(tx, booking.test), booking, request, actor);
  if (changed.length === 0) return { booking: toBookingDetails(booking), releasedLapsedHolds };
  const changedBooking = (await findBooking(tx, ref.owner, booking.reference))!;
  await options.afterChange?.(tx, booking, changedBooking, changed);
  return { booking: toBookingDetails(changedBooking), releasedLapsedHolds };
}
