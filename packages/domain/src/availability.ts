// Availability rules: which date ranges may be asked for, and how a bookable timeslot is shown in the activity's
// own zone. What counts as bookable (open, not started, places free) is one predicate in the timeslots repository,
// shared by the listings and the reservation.
import type { AvailableDate, AvailableTimeslot, ShopTimeslot } from '@backbone/contracts';
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
    // An owner's overbooking leaves booked past the capacity: still no places.
    Available: Math.max(0, slot.capacity - slot.booked),
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

/** A timeslot as the booking page lists it: full ones too, marked, so the page can show them as full. */
export function toShopTimeslot(slot: { localTime: string; startsAt: Date; endsAt: Date; available: number }, timeZone: string): ShopTimeslot {
  const available = Math.max(0, slot.available);
  return {
    Time: slot.localTime,
    StartsAt: formatInZone(slot.startsAt, timeZone),
    EndsAt: formatInZone(slot.endsAt, timeZone),
    Available: available,
    Full: available === 0,
  };
}

/** The first and last dates of a month given as YYYY-MM (the booking page's calendar). */
export function monthDates(month: string): { first: string; last: string } {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = monthNumber === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(monthNumber) ? 30 : 31;
  return { first: `${month}-01`, last: `${month}-${days}` };
}
