// Changing a booking after it was made: moving it to another timeslot (of its activity, or of another one), another
// party size, the customer, the answers, the operator's note. A change applies to a live booking (a hold not yet
// lapsed, or a confirmed booking); a partner may change until the activity's cancellation cutoff, the operator at any
// time. The places move in one transaction with the same conditional rule as a create: the target has room, or
// nothing changes.
import type { BookingStatus } from '@backbone/contracts';
import { assertBeforeCutoff, insufficientCapacity, timeslotUnavailable } from './booking-rules.js';
import { DomainError } from './errors.js';
import type { OperatorActor } from './audit.js';
import { effectiveStatus, type BookingState } from './booking-lifecycle.js';

/** Who made a change: a partner's key, an operator (a console user, or an admin key acting as owner), or the service. */
export type BookingActor = { kind: 'partner'; partnerId: string; apiKeyId: string | null } | OperatorActor | { kind: 'system' };

/** A timeslot as a change sees it, read under its row lock. */
export interface ChangeTimeslot {
  id: number;
  date: string;
  time: string;
  status: 'open' | 'closed';
  started: boolean;
  capacity: number;
  booked: number;
  /** Places of holds that have lapsed but are still counted in booked until released. */
  lapsed: number;
}

/** Throws unless the booking may be changed now by `by`. */
export function assertChangeable(state: BookingState, now: Date, by: 'partner' | 'operator'): void {
  const status: BookingStatus = effectiveStatus(state.status, state.expiresAt, now);
  if (status !== 'on_hold' && status !== 'confirmed') {
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; it can no longer be changed.`, { Status: status });
  }
  if (by === 'partner') assertBeforeCutoff(state, now, 'change');
}

/**
 * The places a change takes from `target`: all of the new party when it moves there, the growth of the party when
 * it stays. A target that gains places must be open and not started (409 /timeslot-unavailable); one without room is
 * a 409 /insufficient-capacity naming what is left. Places of lapsed holds count as free: `releaseLapsed` asks the
 * caller to release them and look again.
 */
export function placesToTake(
  change: { fromTimeslotId: number; participantsBefore: number; participantsAfter: number },
  target: ChangeTimeslot,
): { take: number; verdict: 'fits' | 'release-lapsed' } {
  const moving = target.id !== change.fromTimeslotId;
  const take = moving ? change.participantsAfter : change.participantsAfter - change.participantsBefore;
  if (take <= 0) return { take, verdict: 'fits' };
  if (target.status === 'closed') throw timeslotUnavailable(target, 'closed');
  if (target.started) throw timeslotUnavailable(target, 'started');
  const free = target.capacity - target.booked;
  if (take <= free) return { take, verdict: 'fits' };
  if (take <= free + target.lapsed) return { take, verdict: 'release-lapsed' };
  throw insufficientCapacity(target, { places: take, verb: 'needed' }, free + target.lapsed);
}

/**
 * Whether a check-in (`arrived` true) or its undo changes the booking. Only a live booking checks in; a repeat keeps
 * the first time. An undo applies in any status: a party checked in and then cancelled can still be corrected.
 */
export function decideCheckIn(state: BookingState, checkedInAt: Date | null, now: Date, arrived: boolean): 'change' | 'unchanged' {
  if (!arrived) return checkedInAt === null ? 'unchanged' : 'change';
  if (checkedInAt !== null) return 'unchanged';
  const status: BookingStatus = effectiveStatus(state.status, state.expiresAt, now);
  if (status !== 'on_hold' && status !== 'confirmed') {
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; it cannot be checked in.`, { Status: status });
  }
  return 'change';
}
