// Usage summaries: the period of a summary in a time zone (local midnight to local 23:59:59, daylight-saving days
// included), how a stretch of time splits into pieces the rollups answer (whole UTC days, whole UTC hours, sub-hour
// edges), the per-day read of a series, and the response assembled from the aggregated rows.
import { describe, expect, it } from 'vitest';
import { MAX_SERIES_DAYS, MAX_SUMMARY_DAYS } from '@backbone/contracts';
import {
  ValidationError,
  addDays,
  assembleUsageSummary,
  dailyReadRanges,
  decimalToNumber,
  localDaysOf,
  periodReadPlan,
  planUsageRead,
  resolveSummaryPeriod,
  type SummaryPeriod,
  type UsageReadPlan,
} from '@backbone/domain';

const HOUR = 3600;
const DAY = 86_400;
const unix = (instant: string) => Date.parse(instant) / 1000;
const utc = (seconds: number) => new Date(seconds * 1000).toISOString();

function failingFields(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.field);
  }
  throw new Error('expected a ValidationError');
}

const period = (from: string, to: string, zone: string, perDay = false) => resolveSummaryPeriod({ from, to, accountTimeZone: zone, perDay });

describe('resolveSummaryPeriod', () => {
  it("covers local midnight of from to local 23:59:59 of to, in the account's zone", () => {
    expect(period('2026-01-01', '2026-01-31', 'UTC')).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
      timeZone: 'UTC',
      fromTimestamp: unix('2026-01-01T00:00:00Z'),
      toTimestamp: unix('2026-01-31T23:59:59Z'),
    });
    const ny = period('2026-07-04', '2026-07-04', 'America/New_York');
    expect([utc(ny.fromTimestamp), utc(ny.toTimestamp)]).toEqual(['2026-07-04T04:00:00.000Z', '2026-07-05T03:59:59.000Z']);
    const kathmandu = period('2026-07-04', '2026-07-04', 'Asia/Kathmandu');
    expect(utc(kathmandu.fromTimestamp)).toBe('2026-07-03T18:15:00.000Z');
  });

  it("uses tz instead of the account's zone when given", () => {
    const p = resolveSummaryPeriod({ from: '2026-01-01', to: '2026-01-01', tz: 'Europe/Lisbon', accountTimeZone: 'America/New_York' });
    expect(p.timeZone).toBe('Europe/Lisbon');
    expect(utc(p.fromTimestamp)).toBe('2026-01-01T00:00:00.000Z');
  });

  it.each([
    ['Europe/Lisbon', '2026-03-29', '2026-03-29T00:00:00.000Z', '2026-03-29T22:59:59.000Z', 23],
    ['Europe/Lisbon', '2026-10-25', '2026-10-24T23:00:00.000Z', '2026-10-25T23:59:59.000Z', 25],
    ['America/New_York', '2026-03-08', '2026-03-08T05:00:00.000Z', '2026-03-09T03:59:59.000Z', 23],
    ['America/New_York', '2026-11-01', '2026-11-01T04:00:00.000Z', '2026-11-02T04:59:59.000Z', 25],
  ])('on a daylight-saving day in %s (%s) ends at the last second before the next local day', (zone, date, from, to, hours) => {
    const p = period(date, date, zone);
    expect([utc(p.fromTimestamp), utc(p.toTimestamp)]).toEqual([from, to]);
    expect((p.toTimestamp + 1 - p.fromTimestamp) / HOUR).toBe(hours);
  });

  it('starts a day without a local midnight at its first instant (America/Santiago 2026-09-06, America/Sao_Paulo 2018-11-04)', () => {
    const santiago = period('2026-09-06', '2026-09-06', 'America/Santiago');
    expect([utc(santiago.fromTimestamp), utc(santiago.toTimestamp)]).toEqual(['2026-09-06T04:00:00.000Z', '2026-09-07T02:59:59.000Z']);
    const saoPaulo = period('2018-11-04', '2018-11-04', 'America/Sao_Paulo');
    expect(utc(saoPaulo.fromTimestamp)).toBe('2018-11-04T03:00:00.000Z');
  });

  it('takes MAX_SUMMARY_DAYS days (MAX_SERIES_DAYS per day) and refuses one more, naming to', () => {
    const from = '2020-01-01';
    expect(() => period(from, addDays(from, MAX_SUMMARY_DAYS - 1), 'UTC')).not.toThrow();
    expect(failingFields(() => period(from, addDays(from, MAX_SUMMARY_DAYS), 'UTC'))).toEqual(['to']);
    expect(() => period(from, addDays(from, MAX_SERIES_DAYS - 1), 'UTC', true)).not.toThrow();
    expect(failingFields(() => period(from, addDays(from, MAX_SERIES_DAYS), 'UTC', true))).toEqual(['to']);
  });

  it('refuses to before from, an unknown tz, and names both at once', () => {
    expect(failingFields(() => period('2026-01-02', '2026-01-01', 'UTC'))).toEqual(['to']);
    expect(failingFields(() => resolveSummaryPeriod({ from: '2026-01-01', to: '2026-01-01', tz: '+01:00', accountTimeZone: 'UTC' }))).toEqual(['tz']);
    expect(failingFields(() => resolveSummaryPeriod({ from: '2026-01-02', to: '2026-01-01', tz: 'Mars/Olympus_Mons', accountTimeZone: 'UTC' }))).toEqual([
      'tz',
      'to',
    ]);
  });

  it('treats a bad zone stored on the account as a server fault, not a client mistake', () => {
    const run = () => period('2026-01-01', '2026-01-01', 'Not/AZone');
    expect(run).toThrow(/account time zone 'Not\/AZone'/);
    expect(run).not.toThrow(ValidationError);
  });
});

describe('localDaysOf', () => {
  it('lists every local day in order, each ending where the next starts, tiling the period', () => {
    for (const zone of ['UTC', 'Europe/Lisbon', 'America/New_York', 'Asia/Kathmandu', 'America/Santiago', 'Australia/Lord_Howe']) {
      const p = period('2026-03-01', '2026-11-30', zone, true);
      const days = localDaysOf(p);
      expect(days).toHaveLength(275);
      expect(days[0]).toMatchObject({ date: '2026-03-01', start: p.fromTimestamp });
      expect(days.at(-1)).toMatchObject({ date: '2026-11-30', end: p.toTimestamp + 1 });
      days.forEach((day, i) => {
        expect(day.date).toBe(addDays('2026-03-01', i));
        if (i > 0) expect(day.start).toBe(days[i - 1]!.end);
      });
    }
  });

  it('gives daylight-saving days their real length', () => {
    const hours = localDaysOf(period('2026-03-28', '2026-03-30', 'Europe/Lisbon')).map((d) => (d.end - d.start) / HOUR);
    expect(hours).toEqual([24, 23, 24]);
    expect(localDaysOf(period('2026-10-25', '2026-10-25', 'Europe/Lisbon')).map((d) => (d.end - d.start) / HOUR)).toEqual([25]);
  });

  // Pacific/Apia skipped 2011-12-30 altogether (23:59:59 on the 29th was followed by 00:00:00 on the 31st): the
  // missing date is an empty day, so a per-day series over those dates counts every second once, as the totals do.
  it('never lets two days of a series overlap, even around a date the zone skipped (Pacific/Apia, 2011-12-30)', () => {
    const days = localDaysOf(period('2011-12-29', '2011-12-31', 'Pacific/Apia', true));
    for (let i = 1; i < days.length; i++) expect(days[i]!.start).toBe(days[i - 1]!.end);
    expect(days.map((d) => (d.end - d.start) / HOUR)).toEqual([24, 0, 24]);
  });

  it('ends a period whose last date the zone skipped at the end of the day before it', () => {
    const skipped = period('2011-12-29', '2011-12-30', 'Pacific/Apia');
    expect(skipped.toTimestamp + 1).toBe(localDaysOf(period('2011-12-29', '2011-12-29', 'Pacific/Apia'))[0]!.end);
  });
});

/** Checks what planUsageRead promises for [start, end): every second in exactly one span, each span read from what can answer it. */
function expectSoundPlan(plan: UsageReadPlan, start: number, end: number): void {
  const order = [plan.rawBefore, plan.hoursBefore, plan.days, plan.hoursAfter, plan.rawAfter];
  expect(order[0]!.from).toBe(start);
  expect(order[4]!.to).toBe(end);
  for (let i = 0; i < order.length; i++) {
    expect(order[i]!.from).toBeLessThanOrEqual(order[i]!.to);
    if (i > 0) expect(order[i]!.from).toBe(order[i - 1]!.to);
  }
  for (const hours of [plan.hoursBefore, plan.hoursAfter]) {
    if (hours.from < hours.to) expect([hours.from % HOUR, hours.to % HOUR]).toEqual([0, 0]);
  }
  if (plan.days.from < plan.days.to) expect([plan.days.from % DAY, plan.days.to % DAY]).toEqual([0, 0]);
  // As little as possible from the finer sources: raw edges under an hour unless no whole hour fits, hours under a day.
  const wholeHourFits = Math.ceil(start / HOUR) * HOUR + HOUR <= end;
  if (wholeHourFits) {
    expect(plan.rawBefore.to - plan.rawBefore.from).toBeLessThan(HOUR);
    expect(plan.rawAfter.to - plan.rawAfter.from).toBeLessThan(HOUR);
  }
  const wholeDayFits = Math.ceil(start / DAY) * DAY + DAY <= end;
  if (wholeDayFits) {
    expect(plan.hoursBefore.to - plan.hoursBefore.from).toBeLessThan(DAY);
    expect(plan.hoursAfter.to - plan.hoursAfter.from).toBeLessThan(DAY);
  }
}

describe('planUsageRead', () => {
  it('reads whole UTC days from the daily rollups, the hours around them hourly and the sub-hour edges raw', () => {
    const start = unix('2026-01-01T10:30:00Z');
    const end = unix('2026-01-04T05:15:00Z');
    expect(planUsageRead(start, end)).toEqual({
      rawBefore: { from: start, to: unix('2026-01-01T11:00:00Z') },
      hoursBefore: { from: unix('2026-01-01T11:00:00Z'), to: unix('2026-01-02T00:00:00Z') },
      days: { from: unix('2026-01-02T00:00:00Z'), to: unix('2026-01-04T00:00:00Z') },
      hoursAfter: { from: unix('2026-01-04T00:00:00Z'), to: unix('2026-01-04T05:00:00Z') },
      rawAfter: { from: unix('2026-01-04T05:00:00Z'), to: end },
    });
  });

  it('reads a stretch that holds no whole UTC day from hours (and raw edges) only', () => {
    const plan = planUsageRead(unix('2026-01-01T10:30:00Z'), unix('2026-01-01T20:00:00Z'));
    expect(plan.days.from).toBe(plan.days.to);
    expect(plan.hoursBefore).toEqual({ from: unix('2026-01-01T11:00:00Z'), to: unix('2026-01-01T20:00:00Z') });
    expect(plan.rawAfter.from).toBe(plan.rawAfter.to);
  });

  it('reads a stretch that holds no whole UTC hour raw, all of it', () => {
    const start = unix('2026-01-01T10:10:00Z');
    const end = unix('2026-01-01T11:50:00Z');
    const plan = planUsageRead(start, end);
    expect(plan.rawBefore).toEqual({ from: start, to: end });
    for (const empty of [plan.hoursBefore, plan.days, plan.hoursAfter, plan.rawAfter]) expect(empty.from).toBe(empty.to);
  });

  it('reads an aligned day from the daily rollup alone, and an empty stretch as nothing', () => {
    const day = unix('2026-01-01T00:00:00Z');
    const plan = planUsageRead(day, day + DAY);
    expect(plan.days).toEqual({ from: day, to: day + DAY });
    for (const empty of [plan.rawBefore, plan.hoursBefore, plan.hoursAfter, plan.rawAfter]) expect(empty.from).toBe(empty.to);
    expectSoundPlan(planUsageRead(day, day), day, day);
  });

  it('keeps its promise on many stretches, aligned and not', () => {
    // A fixed linear congruential sequence: the same stretches every run.
    let seed = 12345;
    const next = (max: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % max;
    };
    const base = unix('2026-01-01T00:00:00Z');
    const lengths = [0, 1, 59 * 60, HOUR, HOUR + 1, 2 * HOUR, DAY - 1, DAY, DAY + 1, 2 * DAY, 40 * DAY];
    for (let i = 0; i < 400; i++) {
      let start = base + next(3 * DAY);
      if (i % 3 === 0) start -= start % HOUR;
      if (i % 5 === 0) start -= start % DAY;
      const length = i % 2 === 0 ? lengths[i % lengths.length]! : next(5 * DAY);
      expectSoundPlan(planUsageRead(start, start + length), start, start + length);
    }
  });
});

describe('periodReadPlan and dailyReadRanges', () => {
  it('plans the period through its last second', () => {
    const p = period('2026-01-01', '2026-01-02', 'UTC');
    expect(periodReadPlan(p).days).toEqual({ from: unix('2026-01-01T00:00:00Z'), to: unix('2026-01-03T00:00:00Z') });
  });

  it('reads a local day of a zone at offset 0 from the daily rollup, and a whole-hour offset from hours', () => {
    expect(dailyReadRanges(localDaysOf(period('2026-01-10', '2026-01-11', 'Europe/Lisbon')))).toEqual([
      { day: 0, source: 'daily', from: unix('2026-01-10T00:00:00Z'), to: unix('2026-01-11T00:00:00Z') },
      { day: 1, source: 'daily', from: unix('2026-01-11T00:00:00Z'), to: unix('2026-01-12T00:00:00Z') },
    ]);
    expect(dailyReadRanges(localDaysOf(period('2026-07-10', '2026-07-10', 'Europe/Lisbon')))).toEqual([
      { day: 0, source: 'hourly', from: unix('2026-07-09T23:00:00Z'), to: unix('2026-07-10T23:00:00Z') },
    ]);
  });

  it('reads the quarter-hour edges of a :45 zone raw', () => {
    expect(dailyReadRanges(localDaysOf(period('2026-07-10', '2026-07-10', 'Asia/Kathmandu')))).toEqual([
      { day: 0, source: 'raw', from: unix('2026-07-09T18:15:00Z'), to: unix('2026-07-09T19:00:00Z') },
      { day: 0, source: 'hourly', from: unix('2026-07-09T19:00:00Z'), to: unix('2026-07-10T18:00:00Z') },
      { day: 0, source: 'raw', from: unix('2026-07-10T18:00:00Z'), to: unix('2026-07-10T18:15:00Z') },
    ]);
  });

  it('covers each day of a series exactly once, daylight-saving days included', () => {
    const p = period('2026-03-01', '2026-11-30', 'America/New_York', true);
    const days = localDaysOf(p);
    const ranges = dailyReadRanges(days);
    days.forEach((day, index) => {
      const own = ranges.filter((r) => r.day === index);
      expect(own[0]!.from).toBe(day.start);
      expect(own.at(-1)!.to).toBe(day.end);
      for (let i = 1; i < own.length; i++) expect(own[i]!.from).toBe(own[i - 1]!.to);
      for (const r of own) expect(r.from).toBeLessThan(r.to);
    });
  });
});

describe('assembleUsageSummary', () => {
  const p: SummaryPeriod = period('2026-05-01', '2026-05-03', 'UTC', true);

  it('answers zeros and no meters for a period without rows, and adds the Series only when asked', () => {
    expect(assembleUsageSummary(p, [], null)).toEqual({
      Period: { From: '2026-05-01', To: '2026-05-03', FromTimestamp: p.fromTimestamp, ToTimestamp: p.toTimestamp },
      Totals: { Usage: 0, Events: 0 },
      Meters: [],
    });
    const withSeries = assembleUsageSummary(p, [], localDaysOf(p));
    expect(withSeries.Series).toEqual([
      { Date: '2026-05-01', Totals: { Usage: 0, Events: 0 }, Meters: [] },
      { Date: '2026-05-02', Totals: { Usage: 0, Events: 0 }, Meters: [] },
      { Date: '2026-05-03', Totals: { Usage: 0, Events: 0 }, Meters: [] },
    ]);
  });

  it("puts period rows and day rows where they belong, keeping the rows' order of meters", () => {
    const summary = assembleUsageSummary(
      p,
      [
        { day: null, meter: null, totalUsage: '12.5', eventCount: 4 },
        { day: null, meter: 'sms-sent', totalUsage: '10', eventCount: 1 },
        { day: null, meter: 'api-call', totalUsage: '2.5', eventCount: 3 },
        { day: 1, meter: null, totalUsage: '12.5', eventCount: 4 },
        { day: 1, meter: 'sms-sent', totalUsage: '10', eventCount: 1 },
        { day: 1, meter: 'api-call', totalUsage: '2.5', eventCount: 3 },
      ],
      localDaysOf(p),
    );
    expect(summary.Totals).toEqual({ Usage: 12.5, Events: 4 });
    expect(summary.Meters).toEqual([
      { Meter: 'sms-sent', TotalUsage: 10, EventCount: 1 },
      { Meter: 'api-call', TotalUsage: 2.5, EventCount: 3 },
    ]);
    expect(summary.Series?.map((d) => d.Totals)).toEqual([
      { Usage: 0, Events: 0 },
      { Usage: 12.5, Events: 4 },
      { Usage: 0, Events: 0 },
    ]);
    expect(summary.Series?.[1]?.Meters.map((m) => m.Meter)).toEqual(['sms-sent', 'api-call']);
  });

  it('refuses a row for a day the period does not have (or any day row without a series)', () => {
    expect(() => assembleUsageSummary(p, [{ day: 3, meter: null, totalUsage: '1', eventCount: 1 }], localDaysOf(p))).toThrow(/unknown day 3/);
    expect(() => assembleUsageSummary(p, [{ day: 0, meter: null, totalUsage: '1', eventCount: 1 }], null)).toThrow(/unknown day 0/);
  });

  it('turns exact decimal sums into the nearest JSON number', () => {
    expect(decimalToNumber('0.30000000000000000000')).toBe(0.3);
    expect(JSON.stringify(decimalToNumber('0.3000000000000000000001'))).toBe('0.3');
    expect(decimalToNumber('123456789012.125')).toBe(123456789012.125);
    expect(decimalToNumber('-2.5')).toBe(-2.5);
    expect(decimalToNumber('0')).toBe(0);
  });
});
