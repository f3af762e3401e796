// Create a booking, from any channel: the domain checks the request against the activity (422) and reserves the
// places with one conditional update that also records the booking and its booking.created event (409 when the
// timeslot is unavailable or too full). With an Idempotency-Key the answer commits in the same transaction.
import type { Booking } from '@backbone/contracts';
import { createBookingStore, type Pool } from '@backbone/db';
import { createBooking as bookThroughDomain, type NewBooking } from '@backbone/domain';
import { runIdempotently, type IdempotencyRequest, type Replayable } from './idempotency.js';

export interface BookingUnitOfWork {
  pool: Pool;
}

export function createBooking(uow: BookingUnitOfWork, request: NewBooking, idempotency: IdempotencyRequest | null = null): Promise<Replayable<Booking>> {
  return runIdempotently(uow.pool, request.accountId, idempotency, (db) => bookThroughDomain(createBookingStore(db), request));
}
