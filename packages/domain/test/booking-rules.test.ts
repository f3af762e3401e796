// The rules every channel books and changes by: the party size, the cutoff before the start (for cancelling and
// changing), and the wording of a timeslot that cannot take a party.
import { describe, expect, it } from 'vitest';
import { assertBeforeCutoff, DomainError, insufficientCapacity, isPastCutoff, partySizeError, timeslotUnavailable, type CutoffState } from '@backbone/domain';

const STARTS_AT = new Date('2026-06-10T09:00:00.000Z');
const state = (cancellationCutoffMinutes: number): CutoffState => ({ reference: 'ABCD2345', startsAt: STARTS_AT, cancellationCutoffMinutes });
const minutesBeforeStart = (minutes: number) => new Date(STARTS_AT.getTime() - minutes * 60_000);

function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

describe('partySizeError', () => {
  it("takes a party up to the activity's maximum", () => {
    expect(partySizeError(1, 6)).toBeNull();
    expect(partySizeError(6, 6)).toBeNull();
  });

  it('names Participants, or the member it is given, when the party is one too many', () => {
    expect(partySizeError(7, 6)).toEqual({ field: 'Participants', message: 'Participants must be at most 6 for this activity.' });
    expect(partySizeError(7, 6, 'unitItems')).toEqual({ field: 'unitItems', message: 'unitItems must be at most 6 for this activity.' });
  });
});

describe('isPastCutoff', () => {
  it('passes exactly cancellationCutoffMinutes before the start, not a millisecond earlier', () => {
    const cutoff = minutesBeforeStart(60);
    expect(isPastCutoff(state(60), new Date(cutoff.getTime() - 1))).toBe(false);
    expect(isPastCutoff(state(60), cutoff)).toBe(true);
    expect(isPastCutoff(state(60), STARTS_AT)).toBe(true);
  });

  it('with no cutoff, passes at the start itself', () => {
    expect(isPastCutoff(state(0), new Date(STARTS_AT.getTime() - 1))).toBe(false);
    expect(isPastCutoff(state(0), STARTS_AT)).toBe(true);
  });
});

describe('assertBeforeCutoff', () => {
  it('lets a cancel or a change through before the cutoff', () => {
    expect(() => assertBeforeCutoff(state(60), minutesBeforeStart(61), 'cancel')).not.toThrow();
    expect(() => assertBeforeCutoff(state(60), minutesBeforeStart(61), 'change')).not.toThrow();
  });

  it('refuses a cancel from the cutoff on, saying when cancellations close', () => {
    const error = thrown(() => assertBeforeCutoff(state(60), minutesBeforeStart(60), 'cancel'));
    expect(error.code).toBe('cancellation-window-closed');
    expect(error.message).toBe('Booking ABCD2345 can no longer be cancelled: cancellations close less than 60 minutes before the start.');
  });

  it('refuses a change from the cutoff on, with its own code and words', () => {
    const error = thrown(() => assertBeforeCutoff(state(30), minutesBeforeStart(10), 'change'));
    expect(error.code).toBe('change-window-closed');
    expect(error.message).toBe('Booking ABCD2345 can no longer be changed: changes close less than 30 minutes before the start.');
  });

  it('says "once the activity has started" when there is no cutoff', () => {
    expect(thrown(() => assertBeforeCutoff(state(0), STARTS_AT, 'cancel')).message).toBe(
      'Booking ABCD2345 can no longer be cancelled: cancellations close once the activity has started.',
    );
    expect(thrown(() => assertBeforeCutoff(state(0), STARTS_AT, 'change')).message).toBe(
      'Booking ABCD2345 can no longer be changed: changes close once the activity has started.',
    );
  });
});

describe('timeslotUnavailable', () => {
  const at = { date: '2026-06-10', time: '10:00' };

  it('words each reason, and always offers another timeslot', () => {
    const missing = timeslotUnavailable(at, 'missing');
    const closed = timeslotUnavailable(at, 'closed');
    const started = timeslotUnavailable(at, 'started');
    expect(missing.message).toBe('There is no timeslot on 2026-06-10 at 10:00. Choose another timeslot.');
    expect(closed.message).toBe('The timeslot on 2026-06-10 at 10:00 is closed. Choose another timeslot.');
    expect(started.message).toBe('The timeslot on 2026-06-10 at 10:00 has already started. Choose another timeslot.');
    for (const error of [missing, closed, started]) {
      expect(error).toBeInstanceOf(DomainError);
      expect(error.code).toBe('timeslot-unavailable');
      expect(error.extensions).toEqual({});
    }
  });
});

describe('insufficientCapacity', () => {
  const at = { date: '2026-06-10', time: '10:00' };

  it('says how many places are left, in the singular and the plural, and carries Available', () => {
    const many = insufficientCapacity(at, { places: 5, verb: 'requested' }, 3);
    expect(many.code).toBe('insufficient-capacity');
    expect(many.message).toBe('Not enough places on 2026-06-10 at 10:00: 5 requested, only 3 places are left.');
    expect(many.extensions).toEqual({ Available: 3 });
    expect(insufficientCapacity(at, { places: 2, verb: 'requested' }, 1).message).toBe(
      'Not enough places on 2026-06-10 at 10:00: 2 requested, only 1 place is left.',
    );
    expect(insufficientCapacity(at, { places: 2, verb: 'requested' }, 0).message).toBe(
      'Not enough places on 2026-06-10 at 10:00: 2 requested, no places are left.',
    );
  });

  it('never tells of fewer than no places (a counter over capacity reads as none left)', () => {
    const error = insufficientCapacity(at, { places: 2, verb: 'requested' }, -3);
    expect(error.message).toContain('no places are left');
    expect(error.extensions).toEqual({ Available: 0 });
  });

  it('adds "Nothing was changed." for a change (places needed), not for a create (places requested)', () => {
    expect(insufficientCapacity(at, { places: 4, verb: 'needed' }, 2).message).toBe(
      'Not enough places on 2026-06-10 at 10:00: 4 needed, only 2 places are left. Nothing was changed.',
    );
    expect(insufficientCapacity(at, { places: 4, verb: 'requested' }, 2).message).not.toContain('Nothing was changed');
  });
});
