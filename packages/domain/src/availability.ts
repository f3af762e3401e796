// Availability rules: which date ranges may be asked for, and how a bookable timeslot is shown in the activity's
// own zone. What counts as bookable (open, not started, places free) is one predicate in the timeslots repository,
// shared by the listings and the reservation.
import type { AvailableDate, AvailableTimeslot } from '@backbone/contracts';
import { ValidationError } from './errors.js';
import { daysBetween, formatInZone } from './time-zones.js';

/** The dates endpoint covers at most this many dates, both ends counted (a leap year fits). */
export const MAX_DATE_RANGE_DATES = 366;

export function checkDateRange(startDate: string, endDate: string): void {
  const span = daysBetween(startDate, endDate);
  if (span < 0) throw new ValidationError([{ field: 'EndDate', message: 'EndDate must be on or after StartDate.' }]);
  if (span + 1 > MAX_DATE_RANGE_DATES) {
    throw new ValidationError([{ field: 'EndDate', message: `The range from StartDate to EndDate may cover at most ${MAX_DATE_RANGE_DATES} dates.` }]);
  }
}

export interface BookableTimeslot {
  /** HH:MM, local to the activity. */
  localTime: string;
  startsAt: Date;
  endsAt: Date;
  capacity: number;
  booked: number;
}

export function toAvailableTimeslot(slot: BookableTimeslot, timeZone: string): AvailableTimeslot {
  return {
    Time: slot.localTime,
    StartsAt: formatInZone(slot.startsAt, timeZone),
    EndsAt: formatInZone(slot.endsAt, timeZone),
    Capacity: slot.capacity,
    Available: slot.capacity - slot.booked,
  };
}

export interface DateAvailability {
  date: string;
  available: number;
  timeslots: number;
}

export function toAvailableDate(day: DateAvailability): AvailableDate {
  return { Date: day.date, Available: day.available, Timeslots: day.timeslots };
}
