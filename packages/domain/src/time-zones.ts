// Wall-clock dates and times in IANA zones. Activities live in their own zone: partners speak local dates and
// times, the database stores instants, and these functions convert between the two, daylight saving included.
import { DateTime, IANAZone } from 'luxon';
import { isCalendarDate } from '@backbone/contracts';

export function isValidTimeZone(zone: string): boolean {
  // Offsets such as "+02:00" are not IANA names, even where luxon would take them. The tz database's legacy names
  // (CET, EST, GMT) are, and are taken.
  return /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(zone) && IANAZone.isValidZone(zone);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** The APIs' one date rule, from the contracts: an existing day from 0001-01-01 to 9999-12-31 (2026-02-30 is not one). */
export { isCalendarDate };

export function isClockTime(value: string): boolean {
  return TIME.test(value);
}

function parts(date: string, time: string) {
  const d = DATE.exec(date);
  const t = TIME.exec(time);
  if (!d || !t) throw new RangeError(`not a local date and time: ${date} ${time}`);
  return { year: Number(d[1]), month: Number(d[2]), day: Number(d[3]), hour: Number(t[1]), minute: Number(t[2]) };
}

/**
 * The instant at which the wall clock in `zone` shows `date` `time`. Null when that wall-clock time does not exist
 * (skipped by a daylight-saving jump); when it exists twice (the repeated hour), the earlier instant.
 */
export function localToInstant(date: string, time: string, zone: string): Date | null {
  const wanted = parts(date, time);
  const resolved = DateTime.fromObject(wanted, { zone });
  if (!resolved.isValid) throw new RangeError(`invalid time zone or date: ${zone} ${date}`);
  if (resolved.hour !== wanted.hour || resolved.minute !== wanted.minute || resolved.day !== wanted.day) return null;
  // luxon resolves a repeated wall-clock time to its later occurrence; look for an earlier one up to 3 hours back
  // (real shifts are 30 minutes to 2 hours).
  let earliest = resolved;
  for (const minutes of [30, 60, 90, 120, 180]) {
    const candidate = resolved.minus({ minutes });
    if (candidate.hour === wanted.hour && candidate.minute === wanted.minute && candidate.day === wanted.day) earliest = candidate;
  }
  return earliest.toJSDate();
}

const two = (n: number) => String(n).padStart(2, '0');

// Formatted instants per zone. Availability answers format the same few timeslot starts and ends over and over, and
// asking the zone database for an offset costs tens of microseconds each time; the cache is exact (keyed by the
// instant itself) and simply starts over when it grows large.
const formattedCache = new Map<string, Map<number, string>>();
let formattedCount = 0;
const FORMATTED_CACHE_LIMIT = 100_000;

/** ISO 8601 in the zone's local time with its UTC offset at that instant, e.g. 2026-03-29T03:00:00+02:00. */
export function formatInZone(instant: Date, zone: string): string {
  const epochMs = Math.floor(instant.getTime() / 1000) * 1000;
  let inZone = formattedCache.get(zone);
  const cached = inZone?.get(epochMs);
  if (cached !== undefined) return cached;
  const offset = Math.round(IANAZone.create(zone).offset(epochMs));
  const local = new Date(epochMs + offset * 60_000).toISOString().slice(0, 19);
  const magnitude = Math.abs(offset);
  const formatted = `${local}${offset < 0 ? '-' : '+'}${two(Math.floor(magnitude / 60))}:${two(magnitude % 60)}`;
  if (formattedCount >= FORMATTED_CACHE_LIMIT) {
    formattedCache.clear();
    formattedCount = 0;
    inZone = undefined;
  }
  if (!inZone) formattedCache.set(zone, (inZone = new Map<number, string>()));
  inZone.set(epochMs, formatted);
  formattedCount += 1;
  return formatted;
}

/** Today's date on the wall calendar of `zone`. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone }).toISODate()!;
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export function weekdayOf(date: string): Weekday {
  // getUTCDay: 0 is Sunday.
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;
}
