// The rules every channel books and changes by (the partner API, OCTO, the console, the online booking page, the
// waitlist): how large a party may be, until when a partner or a customer may cancel or change, and the refusals of a
// timeslot that cannot take a party. Each is decided here once; the channels only word their own errors around them.
import { DomainError, type FieldError } from './errors.js';

/** The party `member` names is larger than the activity takes in one booking; null when it fits. */
export function partySizeError(participants: number, maxParticipants: number, member = 'Participants'): FieldError | null {
  return participants > maxParticipants ? { field: member, message: `${member} must be at most ${maxParticipants} for this activity.` } : null;
}

/** What the cutoff before an activity's start depends on. */
export interface CutoffState {
  reference: string;
  startsAt: Date;
  cancellationCutoffMinutes: number;
}

/**
 * Whether the cutoff has passed: from `cancellationCutoffMinutes` before the start, a partner (or a customer) may no
 * longer cancel or change the booking; the operator may.
 */
export function isPastCutoff(state: CutoffState, now: Date): boolean {
  return now.getTime() >= state.startsAt.getTime() - state.cancellationCutoffMinutes * 60_000;
}

/** Throws the window-closed refusal of `what` once the cutoff has passed. */
export function assertBeforeCutoff(state: CutoffState, now: Date, what: 'cancel' | 'change'): void {
  if (!isPastCutoff(state, now)) return;
  const when =
    state.cancellationCutoffMinutes === 0 ? 'once the activity has started' : `less than ${state.cancellationCutoffMinutes} minutes before the start`;
  throw what === 'cancel'
    ? new DomainError('cancellation-window-closed', `Booking ${state.reference} can no longer be cancelled: cancellations close ${when}.`)
    : new DomainError('change-window-closed', `Booking ${state.reference} can no longer be changed: changes close ${when}.`);
}

/** Why a timeslot cannot take a party at all: none at that date and time, closed by the operator, or already started. */
export type UnavailableBecause = 'missing' | 'closed' | 'started';

export function timeslotUnavailable(at: { date: string; time: string }, because: UnavailableBecause): DomainError {
  const when = `${at.date} at ${at.time}`;
  const why =
    because === 'missing'
      ? `There is no timeslot on ${when}.`
      : because === 'closed'
        ? `The timeslot on ${when} is closed.`
        : `The timeslot on ${when} has already started.`;
  return new DomainError('timeslot-unavailable', `${why} Choose another timeslot.`);
}

/** A timeslot with too few free places for the party: how many were needed, and how many are left. */
export function insufficientCapacity(
  at: { date: string; time: string },
  needed: { places: number; verb: 'requested' | 'needed' },
  available: number,
): DomainError {
  const left = Math.max(0, available);
  const places = left === 0 ? 'no places are left' : left === 1 ? 'only 1 place is left' : `only ${left} places are left`;
  const nothingChanged = needed.verb === 'needed' ? ' Nothing was changed.' : '';
  return new DomainError(
    'insufficient-capacity',
    `Not enough places on ${at.date} at ${at.time}: ${needed.places} ${needed.verb}, ${places}.${nothingChanged}`,
    {
      Available: left,
    },
  );
}
