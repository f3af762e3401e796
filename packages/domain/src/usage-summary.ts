// Usage summaries: the period a summary covers in an IANA time zone, how that period splits into pieces the
// rollups can answer (whole UTC days, whole UTC hours, sub-hour edges), and the summary and per-day series
// assembled from exact decimal sums.
import { DateTime } from 'luxon';
import { MAX_SUMMARY_DAYS, type UsageSummary } from '@backbone/contracts';
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

function startOfLocalDay(date: string, timeZone: string, plusDays = 0): number {
  return DateTime.fromISO(date, { zone: timeZone }).plus({ days: plusDays }).startOf('day').toSeconds();
}

/**
 * The period of a summary: local midnight of `from` to local 23:59:59 of `to`. `tz` (when the caller gave one)
 * overrides the account's zone. Throws a ValidationError naming every failing query member.
 */
export function resolveSummaryPeriod(input: { from: string; to: string; tz?: string | undefined; accountTimeZone: string }): SummaryPeriod {
  const errors: FieldError[] = [];
  const timeZone = input.tz ?? input.accountTimeZone;
  if (input.tz !== undefined && !isValidTimeZone(input.tz)) errors.push({ field: 'tz', message: `tz must be an IANA time zone name such as Europe/Berlin; '${input.tz}' is not one.` });
  const days = daysBetween(input.from, input.to) + 1;
  if (days < 1) errors.push({ field: 'to', message: 'to must be on or after from.' });
  else if (days > MAX_SUMMARY_DAYS) errors.push({ field: 'to', message: `The period from from to to must cover at most ${MAX_SUMMARY_DAYS} days.` });
  if (errors.length > 0) throw new ValidationError(errors);
  if (!isValidTimeZone(timeZone)) throw new Error(`account time zone '${timeZone}' is not a known IANA zone`);
  return {
    from: input.from,
    to: input.to,
    timeZone,
    fromTimestamp: startOfLocalDay(input.from, timeZone),
    toTimestamp: startOfLocalDay(input.to, timeZone, 1) - 1,
  };
}

/** Every local day of the period, in order. */
export function localDaysOf(period: SummaryPeriod): LocalDay[] {
  return Array.from({ length: daysBetween(period.from, period.to) + 1 }, (_, i) => {
    const date = addDays(period.from, i);
    return { date, start: startOfLocalDay(date, period.timeZone), end: startOfLocalDay(date, period.timeZone, 1) };
  });
}

export type UsageSource = 'daily' | 'hourly' | 'raw';

/** A half-open range [from, to) of Unix seconds and the table that answers it. */
export interface UsageRange {
  source: UsageSource;
  from: number;
  to: number;
}

const HOUR = 3600;
const DAY = 86_400;
const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step;
const floorTo = (t: number, step: number) => Math.floor(t / step) * step;

/**
 * Splits [start, end) into the cheapest pieces: whole UTC days (daily rollups), the whole UTC hours around them
 * (hourly rollups) and the sub-hour edges (raw entries; only zones with :30/:45 offsets have those). The pieces
 * cover the range exactly once, so their sums are the range's sums.
 */
export function planUsageRanges(start: number, end: number): UsageRange[] {
  if (start >= end) return [];
  const firstHour = ceilTo(start, HOUR);
  const lastHour = floorTo(end, HOUR);
  if (firstHour >= lastHour) return [{ source: 'raw', from: start, to: end }];
  const ranges: UsageRange[] = [];
  if (start < firstHour) ranges.push({ source: 'raw', from: start, to: firstHour });
  const firstDay = ceilTo(start, DAY);
  const lastDay = floorTo(end, DAY);
  if (firstDay < lastDay) {
    if (firstHour < firstDay) ranges.push({ source: 'hourly', from: firstHour, to: firstDay });
    ranges.push({ source: 'daily', from: firstDay, to: lastDay });
    if (lastDay < lastHour) ranges.push({ source: 'hourly', from: lastDay, to: lastHour });
  } else {
    ranges.push({ source: 'hourly', from: firstHour, to: lastHour });
  }
  if (lastHour < end) ranges.push({ source: 'raw', from: lastHour, to: end });
  return ranges;
}

/** A range tagged with the slice (the whole period, or one local day) it counts towards. */
export interface SlicedUsageRange extends UsageRange {
  slice: number;
}

/** The ranges of a summary: the whole period as slice 0, or with `perDay` every local day as its own slice. */
export function summaryRanges(period: SummaryPeriod, days: LocalDay[] | null): SlicedUsageRange[] {
  if (!days) return planUsageRanges(period.fromTimestamp, period.toTimestamp + 1).map((r) => ({ ...r, slice: 0 }));
  return days.flatMap((day, slice) => planUsageRanges(day.start, day.end).map((r) => ({ ...r, slice })));
}

/**
 * One aggregated row. `slice` null: the whole period; `meter` null: all meters. Sums are exact decimal text.
 * Rows of one slice come sorted by total descending, then meter in code point order.
 */
export interface UsageSumRow {
  slice: number | null;
  meter: string | null;
  totalUsage: string;
  eventCount: number;
}

type MeterTotal = UsageSummary['Meters'][number];
type UsageTotals = UsageSummary['Totals'];

/**
 * Exact decimal text as a JSON number. Sums are exact in PostgreSQL; this is the nearest double, and since
 * JSON.stringify prints the shortest text that reads back as that double, 0.1 + 0.2 is printed 0.3.
 */
export function decimalToNumber(text: string): number {
  return Number(text);
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
    const target = row.slice === null ? summary : series?.[row.slice];
    if (!target) throw new Error(`usage sum row for unknown slice ${String(row.slice)}`);
    if (row.meter === null) target.Totals = { Usage: decimalToNumber(row.totalUsage), Events: row.eventCount };
    else target.Meters.push({ Meter: row.meter, TotalUsage: decimalToNumber(row.totalUsage), EventCount: row.eventCount });
  }
  if (series) summary.Series = series;
  return summary;
}
