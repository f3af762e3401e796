// The waitlist's rules: who may join a timeslot's queue, which entries the free places go to, and which state an
// entry may leave for which. The places themselves are held and booked by the booking rules (booking.ts), the same
// conditional update as every channel's, so an offer and an ordinary booking race for them under one rule.
import type { WaitlistState } from '@backbone/contracts';
import { DomainError, ValidationError } from './errors.js';
import { partySizeError, timeslotUnavailable } from './booking-rules.js';

/** A timeslot as a join sees it. */
export interface WaitlistSlot {
  date: string;
  time: string;
  open: boolean;
  started: boolean;
  /** Free places, lapsed holds counted free. */
  available: number;
  maxParticipants: number;
}

/** Throws unless the party may wait for this timeslot: one it could book, of a bookable timeslot too full for it. */
export function assertMayJoin(slot: WaitlistSlot, participants: number): void {
  const tooLarge = partySizeError(participants, slot.maxParticipants);
  if (tooLarge) throw new ValidationError([tooLarge]);
  if (!slot.open || slot.started) throw timeslotUnavailable(slot, slot.open ? 'started' : 'closed');
  if (slot.available >= participants) {
    throw new DomainError(
      'places-available',
      `${slot.available === 1 ? '1 place is' : `${slot.available} places are`} free on ${slot.date} at ${slot.time}: book them instead of waiting.`,
      { Available: slot.available },
    );
  }
}

/** What an action does to an entry in `state`: act, or nothing (it already took effect); otherwise a 409. */
export function decideWaitlistAction(id: number, state: WaitlistState, action: 'offer' | 'remove' | 'book'): 'act' | 'unchanged' {
  const done = { offer: 'offered', remove: 'removed', book: 'claimed' } as const;
  if (state === done[action]) return 'unchanged';
  const allowed: Record<typeof action, readonly WaitlistState[]> = {
    offer: ['waiting'],
    remove: ['waiting', 'offered'],
    book: ['waiting', 'offered'],
  };
  if (allowed[action].includes(state)) return 'act';
  throw new DomainError('invalid-transition', `Waitlist entry ${id} is ${state}: it cannot be ${done[action]}.`, { State: state });
}
