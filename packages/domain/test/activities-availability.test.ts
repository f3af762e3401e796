// Activities (the rules a new one must meet, and the product partners see), availability (the date range a partner
// may ask for, timeslots shown in the activity's zone) and the typed domain errors those rules throw.
import { describe, expect, it } from 'vitest';
import {
  DomainError,
  MAX_DATE_RANGE_DATES,
  ValidationError,
  addDays,
  checkDateRange,
  checkNewActivity,
  notFound,
  toAvailableDate,
  toAvailableTimeslot,
  toProduct,
  type Activity,
  type NewActivity,
} from '@backbone/domain';

function failingFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.field);
  }
  throw new Error('expected a ValidationError');
}

const newActivity = (overrides: Partial<NewActivity> = {}): NewActivity => ({
  name: 'Sunset kayak',
  durationMinutes: 120,
  timeZone: 'Europe/Lisbon',
  priceMinor: 4500,
  currency: 'EUR',
  maxParticipants: 8,
  ...overrides,
});

describe('checkNewActivity', () => {
  it('takes an activity that meets every rule, at the bounds too', () => {
    expect(() => checkNewActivity(newActivity())).not.toThrow();
    expect(() =>
      checkNewActivity(newActivity({ name: 'x'.repeat(200), description: 'd'.repeat(10_000), durationMinutes: 10_080, priceMinor: 0, maxParticipants: 1000 })),
    ).not.toThrow();
    expect(() => checkNewActivity(newActivity({ durationMinutes: 1, maxParticipants: 1 }))).not.toThrow();
  });

  it.each([
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 200 characters (after trimming)', { name: ` ${'x'.repeat(201)} ` }, 'name'],
    ['a description over 10000 characters', { description: 'd'.repeat(10_001) }, 'description'],
    ['a zero duration', { durationMinutes: 0 }, 'durationMinutes'],
    ['a duration over a week', { durationMinutes: 10_081 }, 'durationMinutes'],
    ['a fractional duration', { durationMinutes: 30.5 }, 'durationMinutes'],
    ['an offset for a zone', { timeZone: '+01:00' }, 'timeZone'],
    ['a negative price', { priceMinor: -1 }, 'priceMinor'],
    ['a fractional price', { priceMinor: 45.5 }, 'priceMinor'],
    ['a lower-case currency', { currency: 'eur' }, 'currency'],
    ['a four-letter currency', { currency: 'EURO' }, 'currency'],
    ['no participants', { maxParticipants: 0 }, 'maxParticipants'],
    ['over 1000 participants', { maxParticipants: 1001 }, 'maxParticipants'],
  ] as Array<[string, Partial<NewActivity>, string]>)('refuses %s', (_label, overrides, field) => {
    expect(failingFields(() => checkNewActivity(newActivity(overrides)))).toEqual([field]);
  });

  it('names every broken field at once', () => {
    const fields = failingFields(() =>
      checkNewActivity({ name: '', durationMinutes: 0, timeZone: 'Nowhere', priceMinor: -1, currency: '€', maxParticipants: 0 }),
    );
    expect(fields).toEqual(['name', 'durationMinutes', 'timeZone', 'priceMinor', 'currency', 'maxParticipants']);
  });
});

describe('toProduct', () => {
  it("shows an activity with the contract's member names and the price in minor units", () => {
    const activity: Activity = {
      id: 42,
      activityId: 'd3e0d3e0-0000-4000-8000-00000000a002',
      accountId: 'd3e0d3e0-0000-4000-8000-000000000001',
      name: 'Escape Room: The Lighthouse',
      description: 'Sixty minutes.',
      durationMinutes: 60,
      timeZone: 'Europe/Lisbon',
      priceMinor: 9000,
      currency: 'EUR',
      maxParticipants: 6,
      active: true,
      inShopfront: true,
      openingHours: null,
    };
    expect(toProduct(activity)).toEqual({
      ID: 42,
      ActivityID: 'd3e0d3e0-0000-4000-8000-00000000a002',
      Name: 'Escape Room: The Lighthouse',
      Description: 'Sixty minutes.',
      DurationMinutes: 60,
      TimeZone: 'Europe/Lisbon',
      Price: { Amount: 9000, Currency: 'EUR' },
      MaxParticipants: 6,
    });
  });
});

describe('checkDateRange', () => {
  it('takes a single date and a range of MAX_DATE_RANGE_DATES dates, both ends counted', () => {
    expect(() => checkDateRange('2026-05-01', '2026-05-01')).not.toThrow();
    expect(() => checkDateRange('2028-01-01', addDays('2028-01-01', MAX_DATE_RANGE_DATES - 1))).not.toThrow();
    expect(MAX_DATE_RANGE_DATES).toBe(366);
  });

  it('refuses an end before the start and a range one date too long, naming EndDate', () => {
    expect(failingFields(() => checkDateRange('2026-05-02', '2026-05-01'))).toEqual(['EndDate']);
    expect(failingFields(() => checkDateRange('2026-01-01', addDays('2026-01-01', MAX_DATE_RANGE_DATES)))).toEqual(['EndDate']);
  });
});

describe('toAvailableTimeslot and toAvailableDate', () => {
  it("shows start and end in the activity's zone with its offset, and the places left", () => {
    const slot = { localTime: '10:00', startsAt: new Date('2026-07-15T09:00:00Z'), endsAt: new Date('2026-07-15T10:30:00Z'), capacity: 6, booked: 4 };
    expect(toAvailableTimeslot(slot, 'Europe/Lisbon')).toEqual({
      Time: '10:00',
      StartsAt: '2026-07-15T10:00:00+01:00',
      EndsAt: '2026-07-15T11:30:00+01:00',
      Capacity: 6,
      Available: 2,
    });
  });

  it('shows a slot across the fall-back hour with a different offset at each end', () => {
    const slot = { localTime: '01:30', startsAt: new Date('2026-10-25T00:30:00Z'), endsAt: new Date('2026-10-25T01:30:00Z'), capacity: 4, booked: 0 };
    expect(toAvailableTimeslot(slot, 'Europe/Lisbon')).toMatchObject({
      StartsAt: '2026-10-25T01:30:00+01:00',
      EndsAt: '2026-10-25T01:30:00+00:00',
      Available: 4,
    });
  });

  it('shows a date with its places and timeslots', () => {
    expect(toAvailableDate({ date: '2026-07-15', available: 11, timeslots: 3 })).toEqual({ Date: '2026-07-15', Available: 11, Timeslots: 3 });
  });
});

describe('domain errors', () => {
  it('ValidationError carries its fields, joins their messages and is a DomainError with code validation', () => {
    const error = new ValidationError([
      { field: 'a', message: 'a is wrong.' },
      { field: 'b', message: 'b is wrong.' },
    ]);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('validation');
    expect(error.message).toBe('a is wrong.; b is wrong.');
    expect(error.extensions).toEqual({ errors: error.errors });
  });

  it('notFound is a not-found DomainError naming the thing', () => {
    const error = notFound('Activity');
    expect(error.code).toBe('not-found');
    expect(error.message).toBe('Activity not found.');
    expect(error.extensions).toEqual({});
    expect(error.name).toBe('DomainError');
  });
});
