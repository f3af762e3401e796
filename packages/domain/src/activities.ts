// Activities as partners see them (products), and the rules a new activity must meet.
import type { OperatorActivity, Product, ShopActivity } from '@backbone/contracts';
import { ValidationError, type FieldError } from './errors.js';
import { isClockTime, isValidTimeZone } from './time-zones.js';

export interface Activity {
  /** Numeric product ID. */
  id: number;
  /** UUID used by availability, questions and booking. */
  activityId: string;
  accountId: string;
  name: string;
  description: string;
  durationMinutes: number;
  timeZone: string;
  priceMinor: number;
  currency: string;
  maxParticipants: number;
  active: boolean;
  inShopfront: boolean;
  /** A day-admission activity's daily opening hours (local 'HH:MM'); null for an activity of start times. */
  openingHours: OpeningHours | null;
}

/** Open from-to each day (a climbing gym, a museum): sold as one admission timeslot per day, at the opening time. */
export interface OpeningHours {
  from: string;
  to: string;
}

export interface NewActivity {
  name: string;
  description?: string;
  durationMinutes: number;
  timeZone: string;
  priceMinor: number;
  currency: string;
  maxParticipants: number;
  active?: boolean;
  inShopfront?: boolean;
  openingHours?: OpeningHours | null;
}

/** '09:00-18:00' as opening hours; null when it is not two clock times in order. */
export function parseOpeningHours(text: string): OpeningHours | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/.exec(text.trim());
  if (!match) return null;
  const from = `${match[1]}:${match[2]}`;
  const to = `${match[3]}:${match[4]}`;
  return to > from ? { from, to } : null;
}

/** Minutes from opening to closing: a day-admission activity's timeslot lasts the day. */
export function openingMinutes(hours: OpeningHours): number {
  const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  return minutes(hours.to) - minutes(hours.from);
}

export function toProduct(activity: Activity): Product {
  return {
    ID: activity.id,
    ActivityID: activity.activityId,
    Name: activity.name,
    Description: activity.description,
    DurationMinutes: activity.durationMinutes,
    TimeZone: activity.timeZone,
    Price: { Amount: activity.priceMinor, Currency: activity.currency },
    MaxParticipants: activity.maxParticipants,
  };
}

/** The fewest participants one booking may carry (every activity today: one). */
export const MIN_PARTICIPANTS = 1;

/** An activity as the booking page shows it (ShopActivity): the product without the partners' numeric ID. */
export function toShopActivity(activity: Activity): ShopActivity {
  const { ID: _id, ...product } = toProduct(activity);
  return { ...product, MinParticipants: MIN_PARTICIPANTS };
}

/** The operator's view: the product and whether it is active and offered in the shopfront. */
export function toOperatorActivity(activity: Activity): OperatorActivity {
  return { ...toProduct(activity), Active: activity.active, InShopfront: activity.inShopfront };
}

const isWholeNumber = (value: number, min: number, max: number) => Number.isSafeInteger(value) && value >= min && value <= max;

/** Throws a ValidationError naming every field of `input` that breaks a rule. */
export function checkNewActivity(input: NewActivity): void {
  const errors: FieldError[] = [];
  const name = input.name.trim();
  if (name.length < 1 || name.length > 200) errors.push({ field: 'name', message: 'name must be 1 to 200 characters.' });
  if ((input.description ?? '').length > 10_000) errors.push({ field: 'description', message: 'description must be at most 10000 characters.' });
  if (!isWholeNumber(input.durationMinutes, 1, 7 * 24 * 60))
    errors.push({ field: 'durationMinutes', message: 'durationMinutes must be a whole number of minutes from 1 to 10080.' });
  if (!isValidTimeZone(input.timeZone))
    errors.push({ field: 'timeZone', message: `timeZone must be an IANA time zone name such as Europe/Berlin; got '${input.timeZone}'.` });
  if (!isWholeNumber(input.priceMinor, 0, Number.MAX_SAFE_INTEGER))
    errors.push({ field: 'priceMinor', message: 'priceMinor must be a whole number of minor units (cents), 0 or more.' });
  if (!/^[A-Z]{3}$/.test(input.currency)) errors.push({ field: 'currency', message: 'currency must be an ISO 4217 code in capitals, such as EUR.' });
  if (!isWholeNumber(input.maxParticipants, 1, 1000))
    errors.push({ field: 'maxParticipants', message: 'maxParticipants must be a whole number from 1 to 1000.' });
  const hours = input.openingHours;
  if (hours && (!isClockTime(hours.from) || !isClockTime(hours.to) || hours.to <= hours.from))
    errors.push({ field: 'openingHours', message: 'openingHours must be two clock times in order, such as 09:00-18:00.' });
  if (errors.length > 0) throw new ValidationError(errors);
}
