// Timeslots from a weekly pattern: the chosen weekdays and start times in a date range, as instants in the activity's
// zone; a start time a daylight-saving jump removes is reported instead, a repeated one is created once.
import { describe, expect, it } from 'vitest';
import { MAX_PATTERN_DATES, ValidationError, addDays, planTimeslots, type WeeklyPattern } from '@backbone/domain';

const pattern = (overrides: Partial<WeeklyPattern> = {}): WeeklyPattern => ({
  from: '2026-06-01',
  to: '2026-06-07',
  days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
  times: ['10:00'],
  timeZone: 'Europe/Lisbon',
  durationMinutes: 60,
  capacity: 8,
  ...overrides,
});

/** The fields a ValidationError thrown by `run` names, in order. */
function failingFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.field);
  }
  throw new Error('expected a ValidationError');
}

describe('planTimeslots', () => {
  it('creates one timeslot per chosen weekday and start time, in date then time order', () => {
    // 2026-06-01 is a Monday.
    const { timeslots, skipped } = planTimeslots(pattern({ from: '2026-06-01', to: '2026-06-14', days: ['sat', 'mon'], times: ['14:00', '09:30'] }));
    expect(skipped).toEqual([]);
    expect(timeslots.map((t) => `${t.localDate} ${t.localTime}`)).toEqual([
      '2026-06-01 09:30',
      '2026-06-01 14:00',
      '2026-06-06 09:30',
      '2026-06-06 14:00',
      '2026-06-08 09:30',
      '2026-06-08 14:00',
      '2026-06-13 09:30',
      '2026-06-13 14:00',
    ]);
  });

  it("turns the local start into an instant in the activity's zone and ends it durationMinutes later", () => {
    const { timeslots } = planTimeslots(pattern({ from: '2026-06-01', to: '2026-06-01', times: ['10:00'], durationMinutes: 90, capacity: 12 }));
    expect(timeslots).toEqual([
      { localDate: '2026-06-01', localTime: '10:00', startsAt: new Date('2026-06-01T09:00:00Z'), endsAt: new Date('2026-06-01T10:30:00Z'), capacity: 12 },
    ]);
    const [winter] = planTimeslots(pattern({ from: '2026-01-05', to: '2026-01-05', timeZone: 'America/New_York' })).timeslots;
    expect(winter?.startsAt).toEqual(new Date('2026-01-05T15:00:00Z'));
  });

  it('creates a start time given twice once', () => {
    const { timeslots } = planTimeslots(pattern({ from: '2026-06-01', to: '2026-06-01', times: ['10:00', '10:00', '08:00'] }));
    expect(timeslots.map((t) => t.localTime)).toEqual(['08:00', '10:00']);
  });

  it('takes both ends of the range and a single-date range', () => {
    const { timeslots } = planTimeslots(pattern({ from: '2026-06-01', to: '2026-06-03' }));
    expect(timeslots.map((t) => t.localDate)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
  });

  it('returns nothing (and no error) when no date of the range falls on a chosen weekday', () => {
    expect(planTimeslots(pattern({ from: '2026-06-01', to: '2026-06-05', days: ['sat', 'sun'] }))).toEqual({ timeslots: [], skipped: [] });
  });

  it('on a spring-forward day skips and reports the start times that do not exist (Europe/Lisbon, 2026-03-29)', () => {
    const { timeslots, skipped } = planTimeslots(pattern({ from: '2026-03-28', to: '2026-03-30', times: ['00:30', '01:00', '01:30', '02:00'] }));
    expect(skipped).toEqual([
      { date: '2026-03-29', time: '01:00', reason: 'nonexistent-local-time' },
      { date: '2026-03-29', time: '01:30', reason: 'nonexistent-local-time' },
    ]);
    expect(timeslots.filter((t) => t.localDate === '2026-03-29').map((t) => [t.localTime, t.startsAt.toISOString()])).toEqual([
      ['00:30', '2026-03-29T00:30:00.000Z'],
      ['02:00', '2026-03-29T01:00:00.000Z'],
    ]);
    expect(timeslots.filter((t) => t.localDate !== '2026-03-29')).toHaveLength(8);
  });

  it('on a fall-back day creates a repeated start time once, at its first occurrence (America/New_York, 2026-11-01)', () => {
    const { timeslots, skipped } = planTimeslots(
      pattern({ from: '2026-11-01', to: '2026-11-01', times: ['01:30'], timeZone: 'America/New_York', durationMinutes: 60 }),
    );
    expect(skipped).toEqual([]);
    // 01:30 EDT; the hour that follows lasts until 01:30 EST, an hour later in real time.
    expect(timeslots).toEqual([
      { localDate: '2026-11-01', localTime: '01:30', startsAt: new Date('2026-11-01T05:30:00Z'), endsAt: new Date('2026-11-01T06:30:00Z'), capacity: 8 },
    ]);
  });

  it('keeps durations in real time across a jump: a slot spanning spring forward ends an hour later on the clock', () => {
    const [slot] = planTimeslots(pattern({ from: '2026-03-29', to: '2026-03-29', times: ['00:30'], durationMinutes: 60 })).timeslots;
    expect(slot?.endsAt.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('takes a range of MAX_PATTERN_DATES dates and refuses one more', () => {
    const from = '2026-01-01';
    const longest = planTimeslots(pattern({ from, to: addDays(from, MAX_PATTERN_DATES - 1), days: ['mon'], timeZone: 'UTC' }));
    expect(longest.timeslots.length).toBeGreaterThanOrEqual(104);
    expect(failingFields(() => planTimeslots(pattern({ from, to: addDays(from, MAX_PATTERN_DATES) })))).toEqual(['to']);
  });

  it('refuses a range that ends before it starts, and dates that are not calendar dates', () => {
    expect(failingFields(() => planTimeslots(pattern({ from: '2026-06-02', to: '2026-06-01' })))).toEqual(['to']);
    expect(failingFields(() => planTimeslots(pattern({ from: '2026-02-30', to: '2026-6-1' })))).toEqual(['from', 'to']);
  });

  it.each([
    ['no days', { days: [] }, 'days'],
    ['an unknown day', { days: ['mon', 'Tue'] }, 'days'],
    ['no times', { times: [] }, 'times'],
    ['a time past 23:59', { times: ['10:00', '24:00'] }, 'times'],
    ['a time without minutes', { times: ['10'] }, 'times'],
    ['an offset for a zone', { timeZone: '+01:00' }, 'timeZone'],
    ['an unknown zone', { timeZone: 'Europe/Atlantis' }, 'timeZone'],
    ['a zero duration', { durationMinutes: 0 }, 'durationMinutes'],
    ['a fractional duration', { durationMinutes: 1.5 }, 'durationMinutes'],
    ['a negative capacity', { capacity: -1 }, 'capacity'],
    ['a capacity over 100000', { capacity: 100_001 }, 'capacity'],
    ['a fractional capacity', { capacity: 2.5 }, 'capacity'],
  ] as Array<[string, Partial<WeeklyPattern>, string]>)('refuses %s', (_label, overrides, field) => {
    expect(failingFields(() => planTimeslots(pattern(overrides)))).toEqual([field]);
  });

  it('takes the capacity bounds 0 and 100000 and a one-minute duration', () => {
    expect(planTimeslots(pattern({ capacity: 0 })).timeslots[0]?.capacity).toBe(0);
    expect(planTimeslots(pattern({ capacity: 100_000 })).timeslots[0]?.capacity).toBe(100_000);
    expect(planTimeslots(pattern({ durationMinutes: 1 })).timeslots).toHaveLength(7);
  });

  it('names every broken field at once', () => {
    const fields = failingFields(() => planTimeslots({ from: 'x', to: 'y', days: [], times: ['25:00'], timeZone: 'CEST', durationMinutes: -5, capacity: -1 }));
    expect(fields).toEqual(['from', 'to', 'days', 'times', 'timeZone', 'durationMinutes', 'capacity']);
  });
});
