// The operator's changes to a booking (the console's booking panel and manifest): cancel, move, resize or edit, check
// in. Cancel and the changes are the lifecycle's and changeBooking's, with the operator's rules (no partner cutoff);
// each answers the booking as the console shows it, read after the commit.
import type { BookingDetail, OperatorBookingChange, OperatorCancelRequest, RescheduleRequest } from '@backbone/contracts';
import { findOperatorBooking, inTransaction, writeCheckIn, type Pool } from '@backbone/db';
import { decideCheckIn, notFound, type BookingActor } from '@backbone/domain';
import { cancelBooking, lockedBooking, stateOf, type BookingRef } from './booking-lifecycle.js';
import { changeBooking } from './change-booking.js';
import type { IdempotencyRequest, Replayable } from './idempotency.js';

/** A booking of the account, as the operator sees it (every partner's). */
export interface OperatorBookingRef {
  accountId: string;
  reference: string;
}

const asOperator = (ref: OperatorBookingRef): BookingRef => ({ owner: { accountId: ref.accountId, partnerId: null }, reference: ref.reference });

async function shown(pool: Pool, ref: OperatorBookingRef): Promise<BookingDetail> {
  const booking = await findOperatorBooking(pool, ref.accountId, ref.reference.toUpperCase());
  if (!booking) throw notFound('Booking');
  return booking;
}

export async function cancelOperatorBooking(
  uow: { pool: Pool },
  ref: OperatorBookingRef,
  request: OperatorCancelRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<BookingDetail>> {
  const { replayed } = await cancelBooking(uow, asOperator(ref), request, actor, idempotency);
  return { value: await shown(uow.pool, ref), replayed };
}

export async function rescheduleOperatorBooking(
  uow: { pool: Pool },
  ref: OperatorBookingRef,
  request: RescheduleRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<BookingDetail>> {
  const { replayed } = await changeBooking(uow, asOperator(ref), { move: { date: request.Date, time: request.Time } }, actor, idempotency);
  return { value: await shown(uow.pool, ref), replayed };
}

export async function changeOperatorBooking(
  uow: { pool: Pool },
  ref: OperatorBookingRef,
  request: OperatorBookingChange,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<BookingDetail>> {
  const change = {
    ...(request.Participants !== undefined ? { participants: request.Participants } : {}),
    ...(request.Customer !== undefined ? { customer: request.Customer } : {}),
    // An emptied note is no note.
    ...(request.Note !== undefined ? { note: request.Note === '' ? null : request.Note } : {}),
  };
  const { replayed } = await changeBooking(uow, asOperator(ref), change, actor, idempotency);
  return { value: await shown(uow.pool, ref), replayed };
}

/** Checks a live booking in (`arrived`), or undoes its check-in; a repeat changes nothing and records nothing. */
export async function checkInOperatorBooking(uow: { pool: Pool }, ref: OperatorBookingRef, arrived: boolean, actor: BookingActor): Promise<BookingDetail> {
  await inTransaction(uow.pool, async (tx) => {
    const booking = await lockedBooking(tx, asOperator(ref));
    if (decideCheckIn(stateOf(booking), booking.checkedInAt, booking.now, arrived) === 'change') await writeCheckIn(tx, booking, arrived, actor);
  });
  return shown(uow.pool, ref);
}
