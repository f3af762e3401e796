// Usage summaries: the period a summary covers in an IANA time zone, how that period splits into pieces the
// rollups can answer (whole UTC days, whole UTC hours, sub-hour edges), and the summary and per-day series
// assembled from exact decimal sums.
import { DateTime } from 'luxon';
import { MAX_SERIES_DAYS, MAX_SUMMARY_DAYS, type UsageSummary } from '@backbone/contracts';
import { ValidationError, type FieldError } from './errors.js';
import { addDays, daysBetween, isValidTimeZone } from './time-zones.js';

export interface SummaryPeriod {
  from: string;
  to: string;
  timeZone: string;
  /** Unix seconds of local 00:00:00 of `from` (the first instant of that day where midnight does not exist). */
  fromTimestamp: number;
  /** Unix seconds of local 23:59:59 of `to`: the last second before the next local day, also on daylight-saving days. */
  toTimestamp: number;
}

export interface LocalDay {
  date: string;
  /** Unix seconds of the first instant of the day. */
  start: number;
  /** Unix seconds of the first instant of the next day (exclusive). */
  end: number;
}

// isValidTimeZone builds an Intl.DateTimeFormat per call, a noticeable share of a summary request; the names seen
// valid are remembered (there are a few hundred IANA names, so the set stays small).
const validZones = new Set<string>();
function isKnownZone(name: string): boolean {
  if (validZones.has(name)) return true;
  if (!isValidTimeZone(name)) return false;
  validZones.add(name);
  return true;
}

/**
 * The first instant of a local date. A day ends where the next date starts (not 24 hours of wall clock after its own
 * start): a date the zone skipped (Pacific/Apia went from 2011-12-29 to 2011-12-31) starts at the next date's midnight
 * and so has no length, instead of repeating the next day.
 */
function startOfLocalDay(date: string, timeZone: string): number {
  return DateTime.fromISO(date, { zone: timeZone }).startOf('day').toSeconds();
}

/**
 * The period of a summary: local midnight of `from` to local 23:59:59 of `to`. `tz` (when the caller gave one)
 * overrides the account's zone. Throws a ValidationError naming every failing query member.
 */
export function resolveSummaryPeriod(input: { from: string; to: string; tz?: string | undefined; accountTimeZone: string; perDay?: boolean }): SummaryPeriod {
  const errors: FieldError[] = [];
  const timeZone = input.tz ?? input.accountTimeZone;
  if (input.tz !== undefined && !isKnownZone(input.tz))
    errors.push({ field: 'tz', message: `tz must be an IANA time zone name such as Europe/Berlin; '${input.tz}' is not one.` });
  const days = daysBetween(input.from, input.to) + 1;
  // A series reads every hour of every day, so it gets the shorter limit.
  const maxDays = input.perDay ? MAX_SERIES_DAYS : MAX_SUMMARY_DAYS;
  if (days < 1) errors.push({ field: 'to', message: 'to must be on or after from.' });
  else if (days > maxDays)
    errors.push({ field: 'to', message: `The period from from to to must cover at most ${maxDays} days${input.perDay ? ' with granularity=day' : ''}.` });
  if (errors.length > 0) throw new ValidationError(errors);
  if (!isKnownZone(timeZone)) throw new Error(`account time zone '${timeZone}' is not a known IANA zone`);
  return {
    from: input.from,
    to: input.to,
    timeZone,
    fromTimestamp: startOfLocalDay(input.from, timeZone),
    toTimestamp: startOfLocalDay(addDays(input.to, 1), timeZone) - 1,
  };
}

/** Every local day of the period, in order. */
export function localDaysOf(period: SummaryPeriod): LocalDay[] {
  return Array.from({ length: daysBetween(period.from, period.to) + 1 }, (_, i) => {
    const date = addDays(period.from, i);
    return { date, start: startOfLocalDay(date, period.timeZone), end: startOfLocalDay(addDays(date, 1), period.timeZone) };
  });
}

/** A half-open range [from, to) of Unix seconds; empty when from === to. */
export interface Span {
  from: number;
  to: number;
}

/**
 * How one stretch of time is read: every second of it lies in exactly one span, so the spans' sums are its sums.
 * Whole UTC days come from the daily rollups, the whole UTC hours around them from the hourly rollups, and the
 * sub-hour edges (only zones with :30/:45 offsets have any) from the entries themselves.
 */
export interface UsageReadPlan {
  rawBefore: Span;
  hoursBefore: Span;
  days: Span;
  hoursAfter: Span;
  rawAfter: Span;
}

const HOUR = 3600;
const DAY = 86_400;
const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step;
const floorTo = (t: number, step: number) => Math.floor(t / step) * step;
const span = (from: number, to: number): Span => ({ from, to });

/** Plans the read of [start, end) (Unix seconds, end exclusive). */
export function planUsageRead(start: number, end: number): UsageReadPlan {
  const firstHour = ceilTo(start, HOUR);
  const lastHour = floorTo(end, HOUR);
  if (firstHour >= lastHour) {
    const none = span(end, end);
    return { rawBefore: span(start, end), hoursBefore: none, days: none, hoursAfter: none, rawAfter: none };
  }
  const firstDay = ceilTo(start, DAY);
  const lastDay = floorTo(end, DAY);
  const hasDays = firstDay < lastDay;
  return {
    rawBefore: span(start, firstHour),
    hoursBefore: span(firstHour, hasDays ? firstDay : lastHour),
    days: hasDays ? span(firstDay, lastDay) : span(lastHour, lastHour),
    hoursAfter: hasDays ? span(lastDay, lastHour) : span(lastHour, lastHour),
    rawAfter: span(lastHour, end),
  };
}

export function periodReadPlan(period: SummaryPeriod): UsageReadPlan {
  return planUsageRead(period.fromTimestamp, period.toTimestamp + 1);
}

export type UsageSource = 'daily' | 'hourly' | 'raw';

/** A non-empty span, the table that answers it, and the local day (index into the period's days) it counts towards. */
export interface DayUsageRange extends Span {
  day: number;
  source: UsageSource;
}

/** The per-day series read: each local day planned on its own (a local day is never a whole UTC day unless the offset is 0). */
export function dailyReadRanges(days: readonly LocalDay[]): DayUsageRange[] {
  return days.flatMap((localDay, day) => {
    const plan = planUsageRead(localDay.start, localDay.end);
    const pieces: Array<[UsageSource, Span]> = [
      ['raw', plan.rawBefore],
      ['hourly', plan.hoursBefore],
      ['daily', plan.days],
      ['hourly', plan.hoursAfter],
      ['raw', plan.rawAfter],
    ];
    return pieces.filter(([, s]) => s.from < s.to).map(([source, s]) => ({ day, source, from: s.from, to: s.to }));
  });
}

/**
 * One aggregated row. `day` null: the whole period; `meter` null: all meters. Sums are exact decimal text.
 * Rows of one day (or of the period) come sorted by total descending, then meter in code point order.
 */
export interface UsageSumRow {
  day: number | null;
  meter: string | null;
  totalUsage: string;
  eventCount: number;
}

type MeterTotal = UsageSummary['Meters'][number];
type UsageTotals = UsageSummary['Totals'];

/**
 * Exact decimal text as a JSON number. Sums are exact in PostgreSQL; this is the nearest double, and since
 * JSON.stringify prints the shortest text that reads back as that double, 0.1 + 0.2 is printed 0.3. A sum beyond the
 * largest double (only entries stored before Usage was bounded can make one) is answered as that largest double, and
 * PostgreSQL's numeric NaN (no API writes one) as 0: JSON.stringify would print either as null, and a total must stay
 * a number.
 */
export function decimalToNumber(text: string): number {
  const value = Number(text);
  if (Number.isFinite(value)) return value;
  return Number.isNaN(value) ? 0 : Math.sign(value) * Number.MAX_VALUE;
}

/** Builds the response from the aggregated rows; `days` (granularity=day) adds the Series. */
export function assembleUsageSummary(period: SummaryPeriod, rows: readonly UsageSumRow[], days: LocalDay[] | null): UsageSummary {
  const zero = (): UsageTotals => ({ Usage: 0, Events: 0 });
  const summary: UsageSummary = {
    Period: { From: period.from, To: period.to, FromTimestamp: period.fromTimestamp, ToTimestamp: period.toTimestamp },
    Totals: zero(),
    Meters: [],
  };
  const series = days?.map((day) => ({ Date: day.date, Totals: zero(), Meters: [] as MeterTotal[] }));
  for (const row of rows) {
    const target = row.day === null ? summary : series?.[row.day];
    if (!target) throw new Error(`usage sum row for unknown day ${String(row.day)}`);
    if (row.meter === null) target.Totals = { Usage: decimalToNumber(row.totalUsage), Events: row.eventCount };
    else target.Meters.push({ Meter: row.meter, TotalUsage: decimalToNumber(row.totalUsage), EventCount: row.eventCount });
  }
  if (series) summary.Series = series;
  return summary;
}
