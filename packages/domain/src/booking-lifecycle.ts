// The booking lifecycle: on_hold -> confirmed | cancelled | expired, confirmed -> cancelled; anything else is an
// invalid transition. A hold whose expiry has passed is expired in every answer, whether or not it was marked yet.
// Partners may cancel until the activity's cutoff before the start; the operator may cancel at any time.
import type { BookingStatus } from '@backbone/contracts';
import { assertBeforeCutoff } from './booking-rules.js';
import { DomainError, ValidationError, type FieldError } from './errors.js';

export type { BookingStatus };

/** What the transitions depend on, read under the booking's row lock. */
export interface BookingState {
  reference: string;
  status: BookingStatus;
  expiresAt: Date | null;
  startsAt: Date;
  cancellationCutoffMinutes: number;
}

export function effectiveStatus(status: BookingStatus, expiresAt: Date | null, now: Date): BookingStatus {
  return status === 'on_hold' && expiresAt !== null && expiresAt <= now ? 'expired' : status;
}

/** 'cancel' to cancel now, 'unchanged' when it is cancelled already (cancelling again changes nothing). */
export function decideCancel(state: BookingState, now: Date, by: 'partner' | 'operator'): 'cancel' | 'unchanged' {
  const status = effectiveStatus(state.status, state.expiresAt, now);
  if (status === 'cancelled') return 'unchanged';
  if (status === 'expired') throw invalidTransition(state.reference, status, 'cancelled');
  if (by === 'partner') assertBeforeCutoff(state, now, 'cancel');
  return 'cancel';
}

/**
 * A customer giving up a hold (the booking page's release): 'release' while it holds places, 'unchanged' once it
 * expired or was cancelled (nothing left to free); a confirmed booking is cancelled at the manage link, not released.
 */
export function decideRelease(state: BookingState, now: Date): 'cancel' | 'unchanged' {
  const status = effectiveStatus(state.status, state.expiresAt, now);
  if (status === 'expired' || status === 'cancelled') return 'unchanged';
  if (status !== 'on_hold')
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; cancel it instead of releasing it.`, { Status: status });
  return 'cancel';
}

/** Throws unless the booking is a hold that still holds its places (what a file for its answers is uploaded to). */
export function assertLiveHold(state: BookingState, now: Date): void {
  const status = effectiveStatus(state.status, state.expiresAt, now);
  if (status === 'expired') throw holdExpired(state);
  if (status !== 'on_hold')
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; files are sent while it is on hold.`, { Status: status });
}

/** 'confirm' to confirm now, 'unchanged' when it is confirmed already. */
export function decideConfirm(state: BookingState, now: Date): 'confirm' | 'unchanged' {
  const status = effectiveStatus(state.status, state.expiresAt, now);
  if (status === 'confirmed') return 'unchanged';
  if (status === 'expired') throw holdExpired(state);
  if (status !== 'on_hold') throw invalidTransition(state.reference, status, 'confirmed');
  return 'confirm';
}

/** A hold may be extended while it is one: on hold and not yet lapsed (a lapsed hold's places are already free). */
export function decideExtend(state: BookingState, now: Date): 'extend' {
  const status = effectiveStatus(state.status, state.expiresAt, now);
  if (status === 'expired') throw holdExpired(state);
  if (status !== 'on_hold')
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; only a hold can be extended.`, { Status: status });
  return 'extend';
}

function holdExpired(state: BookingState): DomainError {
  return new DomainError(
    'hold-expired',
    `The hold on booking ${state.reference} expired at ${state.expiresAt?.toISOString() ?? 'its expiry'}; its places were released. Book again.`,
  );
}

function invalidTransition(reference: string, from: BookingStatus, to: BookingStatus): DomainError {
  return new DomainError('invalid-transition', `Booking ${reference} is ${from}; it cannot become ${to}.`, { Status: from });
}

export interface CustomerDetails {
  FirstName?: string | undefined;
  LastName?: string | undefined;
  Email?: string | undefined;
  Phone?: string | null | undefined;
}

export type ConfirmedCustomer = {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone: string | null;
};

/**
 * The customer of a confirmed booking: the hold's details with the confirm's on top. Whatever the create requires
 * must be present in one of the two (422 naming each missing member).
 */
export function completeCustomer(held: CustomerDetails, given: CustomerDetails | undefined): ConfirmedCustomer {
  const merged = { ...held, ...given };
  requireMembers(merged, ['FirstName', 'LastName', 'Email'], 'is required: send it with the hold or with the confirm.');
  return { FirstName: merged.FirstName!, LastName: merged.LastName!, Email: merged.Email!, Phone: merged.Phone ?? null };
}

/**
 * The customer of a point-of-sale sale: a walk-in may give no e-mail address (no customer e-mail is then written:
 * the mail outbox skips a booking without one); the names are required as on every channel.
 */
export function deskCustomer(given: CustomerDetails): Omit<ConfirmedCustomer, 'Email'> & { Email?: string } {
  requireMembers(given, ['FirstName', 'LastName'], 'is required.');
  return { FirstName: given.FirstName!, LastName: given.LastName!, ...(given.Email !== undefined ? { Email: given.Email } : {}), Phone: given.Phone ?? null };
}

function requireMembers(customer: CustomerDetails, members: readonly ('FirstName' | 'LastName' | 'Email')[], message: string): void {
  const errors: FieldError[] = members
    .filter((member) => customer[member] === undefined)
    .map((member) => ({ field: `Customer.${member}`, message: `Customer.${member} ${message}` }));
  if (errors.length > 0) throw new ValidationError(errors);
}
