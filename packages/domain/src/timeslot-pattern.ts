// Timeslots from a weekly pattern: every chosen weekday in a date range at every chosen start time, as wall-clock
// times in the activity's zone turned into instants. A start time that does not exist on a daylight-saving day
// (the skipped hour) is left out and reported; one that exists twice (the repeated hour) gets one timeslot, at
// its first occurrence.
import { ValidationError, type FieldError } from './errors.js';
import { addDays, daysBetween, isCalendarDate, isClockTime, isValidTimeZone, localToInstant, weekdayOf, WEEKDAYS, type Weekday } from './time-zones.js';

export interface WeeklyPattern {
  from: string;
  to: string;
  days: readonly string[];
  times: readonly string[];
  timeZone: string;
  durationMinutes: number;
  capacity: number;
}

export interface PlannedTimeslot {
  localDate: string;
  localTime: string;
  startsAt: Date;
  endsAt: Date;
  capacity: number;
}

export interface SkippedTimeslot {
  date: string;
  time: string;
  reason: 'nonexistent-local-time';
}

const LAST_INSTANT = Date.parse('9999-12-31T23:59:59Z');

/** Longest range one call may fill: two years. */
export const MAX_PATTERN_DATES = 731;

function checkPattern(pattern: WeeklyPattern): void {
  const errors: FieldError[] = [];
  if (!isCalendarDate(pattern.from)) errors.push({ field: 'from', message: 'from must be a calendar date (YYYY-MM-DD).' });
  if (!isCalendarDate(pattern.to)) errors.push({ field: 'to', message: 'to must be a calendar date (YYYY-MM-DD).' });
  if (errors.length === 0) {
    const span = daysBetween(pattern.from, pattern.to);
    if (span < 0) errors.push({ field: 'to', message: 'to must be on or after from.' });
    else if (span + 1 > MAX_PATTERN_DATES) errors.push({ field: 'to', message: `the range may cover at most ${MAX_PATTERN_DATES} dates.` });
  }
  const unknownDays = pattern.days.filter((d) => !(WEEKDAYS as readonly string[]).includes(d));
  if (pattern.days.length === 0 || unknownDays.length > 0) errors.push({ field: 'days', message: `days must be a list of ${WEEKDAYS.join(', ')}.` });
  const badTimes = pattern.times.filter((t) => !isClockTime(t));
  if (pattern.times.length === 0 || badTimes.length > 0)
    errors.push({ field: 'times', message: 'times must be a list of HH:MM start times (00:00 to 23:59).' });
  if (!isValidTimeZone(pattern.timeZone)) errors.push({ field: 'timeZone', message: 'timeZone must be an IANA time zone name.' });
  if (!Number.isSafeInteger(pattern.durationMinutes) || pattern.durationMinutes < 1)
    errors.push({ field: 'durationMinutes', message: 'durationMinutes must be a positive whole number.' });
  if (!Number.isSafeInteger(pattern.capacity) || pattern.capacity < 0 || pattern.capacity > 100_000)
    errors.push({ field: 'capacity', message: 'capacity must be a whole number from 0 to 100000.' });
  if (errors.length > 0) throw new ValidationError(errors);
}

export function planTimeslots(pattern: WeeklyPattern): { timeslots: PlannedTimeslot[]; skipped: SkippedTimeslot[] } {
  checkPattern(pattern);
  const days = new Set(pattern.days as readonly Weekday[]);
  const times = [...new Set(pattern.times)].sort();
  const timeslots: PlannedTimeslot[] = [];
  const skipped: SkippedTimeslot[] = [];
  const count = daysBetween(pattern.from, pattern.to) + 1;
  for (let i = 0; i < count; i++) {
    const date = addDays(pattern.from, i);
    if (!days.has(weekdayOf(date))) continue;
    for (const time of times) {
      const startsAt = localToInstant(date, time, pattern.timeZone);
      if (!startsAt) {
        skipped.push({ date, time, reason: 'nonexistent-local-time' });
        continue;
      }
      const endsAt = new Date(startsAt.getTime() + pattern.durationMinutes * 60_000);
      // Every instant the APIs show is a four-digit year: a timeslot into year 10000 (UTC) would be shown as
      // +010000-01-01T..., which no client parses as the API's date-time.
      if (endsAt.getTime() > LAST_INSTANT) throw new ValidationError([{ field: 'to', message: 'timeslots must end by 9999-12-31T23:59:59Z.' }]);
      timeslots.push({ localDate: date, localTime: time, startsAt, endsAt, capacity: pattern.capacity });
    }
  }
  return { timeslots, skipped };
}
