// Create a booking, from any channel: the domain checks the request against the activity (422) and reserves the
// places with one conditional update that also records the booking and its booking.created event (409 when the
// timeslot is unavailable or too full). With an Idempotency-Key the answer commits in the same transaction. The
// reservation commits without waiting for the disk (so a hot timeslot's row lock is not held through a flush): the
// answer waits for durability (runIdempotently's `durable`), a replayed answer too.
import type { Booking } from '@backbone/contracts';
import { createBookingStore, inTransaction, type Db, type Pool } from '@backbone/db';
import { reserveBooking, DomainError, referencedFileIds, type NewBooking } from '@backbone/domain';
import { countBookings } from '@backbone/metrics';
import { runIdempotently, type IdempotencyRequest, type Replayable } from './idempotency.js';

export interface BookingDeps {
  pool: Pool;
}

export interface CreateBookingOptions {
  /**
   * Writes of the caller's own (OCTO's uuid and unit items, the desk's payment and price) that commit with the booking,
   * or not at all; answering a booking replaces the one answered (a price set by hand changes its total).
   */
  withinBooking?: (tx: Db, booking: Booking) => Promise<Booking | void>;
}

export async function createBooking(
  deps: BookingDeps,
  request: NewBooking,
  idempotency: IdempotencyRequest | null = null,
  options: CreateBookingOptions = {},
): Promise<Replayable<Booking>> {
  try {
    // A booking that references uploaded files locks them and takes them in one transaction with its places; so does
    // one whose caller writes more with it.
    const within = options.withinBooking;
    const inOneTransaction = referencedFileIds(request.answers).length > 0 || within !== undefined;
    const result = await runIdempotently(
      deps.pool,
      request.accountId,
      idempotency,
      (db) =>
        inOneTransaction
          ? inTransaction(db, async (tx) => {
              const booking = await reserveBooking(createBookingStore(tx), request);
              return (await within?.(tx, booking)) ?? booking;
            })
          : reserveBooking(createBookingStore(db), request),
      { durable: true },
    );
    if (!result.replayed) countBookings(request.channel, result.value.Status === 'on_hold' ? 'held' : 'created');
    return result;
  } catch (error) {
    if (error instanceof DomainError && error.code === 'insufficient-capacity') countBookings(request.channel, 'full');
    else if (error instanceof DomainError && error.code === 'timeslot-unavailable') countBookings(request.channel, 'unavailable');
    throw error;
  }
}
