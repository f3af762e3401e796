// The lifecycle's decisions, taken under the booking's row lock: what a hold past its expiry is, whether a cancel, a
// confirm or an extension applies (partners until the cutoff, the operator at any time), and the confirmed customer.
import { describe, expect, it } from 'vitest';
import {
  completeCustomer,
  decideCancel,
  decideConfirm,
  decideExtend,
  DomainError,
  effectiveStatus,
  ValidationError,
  type BookingState,
  type BookingStatus,
} from '@backbone/domain';

const STARTS_AT = new Date('2026-06-10T09:00:00.000Z');
const EXPIRES_AT = new Date('2026-06-01T12:30:00.000Z');
/** Long before the cutoff, and before the hold's expiry. */
const EARLY = new Date('2026-06-01T12:00:00.000Z');
/** After the hold's expiry, still before the cutoff. */
const AFTER_EXPIRY = new Date('2026-06-01T12:30:00.001Z');
/** Inside the 60-minute cutoff. */
const LATE = new Date('2026-06-10T08:30:00.000Z');

const booking = (status: BookingStatus, expiresAt: Date | null = null): BookingState => ({
  reference: 'ABCD2345',
  status,
  expiresAt,
  startsAt: STARTS_AT,
  cancellationCutoffMinutes: 60,
});
const hold = () => booking('on_hold', EXPIRES_AT);

function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

describe('effectiveStatus', () => {
  it('is expired for a hold from its expiry instant on, whether or not it was marked', () => {
    expect(effectiveStatus('on_hold', EXPIRES_AT, new Date(EXPIRES_AT.getTime() - 1))).toBe('on_hold');
    expect(effectiveStatus('on_hold', EXPIRES_AT, EXPIRES_AT)).toBe('expired');
    expect(effectiveStatus('on_hold', EXPIRES_AT, AFTER_EXPIRY)).toBe('expired');
  });

  it('leaves every other status as stored, and a hold without an expiry on hold', () => {
    expect(effectiveStatus('on_hold', null, LATE)).toBe('on_hold');
    expect(effectiveStatus('confirmed', EXPIRES_AT, LATE)).toBe('confirmed');
    expect(effectiveStatus('cancelled', EXPIRES_AT, LATE)).toBe('cancelled');
    expect(effectiveStatus('expired', null, EARLY)).toBe('expired');
  });
});

describe('decideCancel', () => {
  it('cancels a hold or a confirmed booking before the cutoff, for a partner and the operator', () => {
    for (const by of ['partner', 'operator'] as const) {
      expect(decideCancel(hold(), EARLY, by)).toBe('cancel');
      expect(decideCancel(booking('confirmed'), EARLY, by)).toBe('cancel');
    }
  });

  it('refuses a partner from the cutoff on, and lets the operator cancel then, even after the start', () => {
    const error = thrown(() => decideCancel(booking('confirmed'), LATE, 'partner'));
    expect(error.code).toBe('cancellation-window-closed');
    expect(error.message).toContain('Booking ABCD2345 can no longer be cancelled');
    expect(decideCancel(booking('confirmed'), LATE, 'operator')).toBe('cancel');
    expect(decideCancel(booking('confirmed'), new Date(STARTS_AT.getTime() + 3_600_000), 'operator')).toBe('cancel');
  });

  it('answers unchanged for a cancelled booking, also past the cutoff (a repeat is no error)', () => {
    expect(decideCancel(booking('cancelled'), EARLY, 'partner')).toBe('unchanged');
    expect(decideCancel(booking('cancelled'), LATE, 'partner')).toBe('unchanged');
  });

  it('refuses to cancel an expired hold, marked or only lapsed, naming its status', () => {
    for (const [state, now] of [
      [booking('expired'), EARLY],
      [hold(), AFTER_EXPIRY],
    ] as const) {
      const error = thrown(() => decideCancel(state, now, 'operator'));
      expect(error.code).toBe('invalid-transition');
      expect(error.message).toBe('Booking ABCD2345 is expired; it cannot become cancelled.');
      expect(error.extensions).toEqual({ Status: 'expired' });
    }
  });
});

describe('decideConfirm', () => {
  it('confirms a live hold, also past the cancellation cutoff', () => {
    expect(decideConfirm(hold(), EARLY)).toBe('confirm');
    expect(decideConfirm(booking('on_hold', new Date(STARTS_AT.getTime() + 1)), LATE)).toBe('confirm');
  });

  it('answers unchanged for a confirmed booking', () => {
    expect(decideConfirm(booking('confirmed'), EARLY)).toBe('unchanged');
  });

  it('refuses a lapsed hold with hold-expired, naming the instant it expired', () => {
    const error = thrown(() => decideConfirm(hold(), AFTER_EXPIRY));
    expect(error.code).toBe('hold-expired');
    expect(error.message).toBe('The hold on booking ABCD2345 expired at 2026-06-01T12:30:00.000Z; its places were released. Book again.');
  });

  it('refuses a hold marked expired the same way, also when its expiry is not known', () => {
    expect(thrown(() => decideConfirm(booking('expired'), EARLY)).message).toBe(
      'The hold on booking ABCD2345 expired at its expiry; its places were released. Book again.',
    );
  });

  it('refuses a cancelled booking as an invalid transition', () => {
    const error = thrown(() => decideConfirm(booking('cancelled'), EARLY));
    expect(error.code).toBe('invalid-transition');
    expect(error.message).toBe('Booking ABCD2345 is cancelled; it cannot become confirmed.');
    expect(error.extensions).toEqual({ Status: 'cancelled' });
  });
});

describe('decideExtend', () => {
  it('extends a hold that has not lapsed', () => {
    expect(decideExtend(hold(), EARLY)).toBe('extend');
  });

  it('refuses a lapsed hold (its places are free already) with hold-expired', () => {
    expect(thrown(() => decideExtend(hold(), EXPIRES_AT)).code).toBe('hold-expired');
  });

  it('refuses anything but a hold', () => {
    for (const status of ['confirmed', 'cancelled'] as const) {
      const error = thrown(() => decideExtend(booking(status), EARLY));
      expect(error.code).toBe('invalid-transition');
      expect(error.message).toBe(`Booking ABCD2345 is ${status}; only a hold can be extended.`);
      expect(error.extensions).toEqual({ Status: status });
    }
  });
});

describe('completeCustomer', () => {
  it("puts the confirm's members over the hold's and keeps the hold's others", () => {
    expect(completeCustomer({ FirstName: 'Ana', LastName: 'Silva', Email: 'old@example.com', Phone: '+351 900' }, { Email: 'ana@example.com' })).toEqual({
      FirstName: 'Ana',
      LastName: 'Silva',
      Email: 'ana@example.com',
      Phone: '+351 900',
    });
  });

  it('takes the whole customer from the confirm when the hold had none, Phone null when neither gave one', () => {
    expect(completeCustomer({}, { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' })).toEqual({
      FirstName: 'Ana',
      LastName: 'Silva',
      Email: 'ana@example.com',
      Phone: null,
    });
  });

  it('names each required member that neither the hold nor the confirm gave, at once', () => {
    let error: unknown;
    try {
      completeCustomer({ FirstName: 'Ana' }, undefined);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).code).toBe('validation');
    expect((error as ValidationError).errors).toEqual([
      { field: 'Customer.LastName', message: 'Customer.LastName is required: send it with the hold or with the confirm.' },
      { field: 'Customer.Email', message: 'Customer.Email is required: send it with the hold or with the confirm.' },
    ]);
  });
});
