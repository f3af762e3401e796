// OCTO's view of the inventory (octo.travel, core and octo/pricing): an activity is a product with one default option
// and one unit (ADULT, the activity's price per participant); a timeslot is an availability whose id is its local start
// as OCTO writes it; a partner booking made through /octo is an OCTO booking whose unit items are its participants.
// OCTO's errors are typed here (OctoError); the partner API's /octo error handler gives them their status and body.
import { CALENDAR_DATE_RULE } from '@backbone/contracts';
import type {
  OctoAvailability,
  OctoAvailabilityStatus,
  OctoBooking,
  OctoCalendarDay,
  OctoContact,
  OctoContactRequest,
  OctoOption,
  OctoPricing,
  OctoProduct,
  OctoUnit,
  OctoUnitItem,
} from '@backbone/contracts';
import type { BookingStatus, CustomerDetails } from './booking-lifecycle.js';
import { addDays, daysBetween, formatInZone, isCalendarDate, isClockTime } from './time-zones.js';

export type OctoErrorCode =
  'INVALID_PRODUCT_ID' | 'INVALID_OPTION_ID' | 'INVALID_UNIT_ID' | 'INVALID_AVAILABILITY_ID' | 'INVALID_BOOKING_UUID' | 'BAD_REQUEST' | 'UNPROCESSABLE_ENTITY';

/** An OCTO error: its code, message and the request's member it is about (`{ productId: "…" }`), echoed in the body. */
export class OctoError extends Error {
  override name = 'OctoError';
  constructor(
    readonly code: OctoErrorCode,
    message: string,
    readonly echo: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export const invalidProductId = (productId: string) => new OctoError('INVALID_PRODUCT_ID', 'The productId was missing or invalid.', { productId });
export const invalidOptionId = (optionId: string) => new OctoError('INVALID_OPTION_ID', 'The optionId was missing or invalid.', { optionId });
export const invalidUnitId = (unitId: string) => new OctoError('INVALID_UNIT_ID', 'The unitId was missing or invalid.', { unitId });
export const invalidAvailabilityId = (availabilityId: string) =>
  new OctoError('INVALID_AVAILABILITY_ID', 'The availabilityId was missing or invalid.', { availabilityId });
export const invalidBookingUuid = (uuid: string) => new OctoError('INVALID_BOOKING_UUID', 'The uuid was already used, missing or invalid.', { uuid });
export const octoBadRequest = (message: string) => new OctoError('BAD_REQUEST', message);
export const octoUnprocessable = (message: string) => new OctoError('UNPROCESSABLE_ENTITY', message);

/** Every product has this one option, and this one unit (an adult participant at the activity's price). */
export const OCTO_OPTION_ID = 'DEFAULT';
export const OCTO_UNIT_ID = 'adult';
/** A reservation's hold: OCTO's expirationMinutes when sent, at most the partner API's longest hold. */
export const OCTO_DEFAULT_HOLD_MINUTES = 30;
export const OCTO_MAX_HOLD_MINUTES = 60;
/** The longest date range of an availability or calendar request (a year, as the partner API's dates). */
export const OCTO_MAX_RANGE_DAYS = 366;

export const holdMinutesOf = (expirationMinutes: number | undefined) => Math.min(expirationMinutes ?? OCTO_DEFAULT_HOLD_MINUTES, OCTO_MAX_HOLD_MINUTES);

/** An activity as OCTO reads it (the OCTO repository's record). */
export interface OctoActivity {
  internalId: number;
  activityId: string;
  name: string;
  timeZone: string;
  durationMinutes: number;
  priceMinor: number;
  currency: string;
  maxParticipants: number;
  cancellationCutoffMinutes: number;
  openingTime: string | null;
  closingTime: string | null;
  startTimes: string[];
}

/** A timeslot as OCTO reads it. */
export interface OctoSlot {
  localDate: string;
  localTime: string;
  startsAt: Date;
  endsAt: Date;
  capacity: number;
  booked: number;
  open: boolean;
  started: boolean;
}

export interface OctoView {
  /** The request asked for octo/pricing (Octo-Capabilities). */
  pricing: boolean;
}

/** A UTC instant as OCTO writes it: whole seconds, `Z`. */
export const utcInstant = (instant: Date) => `${instant.toISOString().slice(0, 19)}Z`;

// Kept per currency code: making an Intl.NumberFormat costs about 40 µs, and an availability answer prices every
// availability (a month of a product was a third of the request's CPU). ISO 4217 has fewer than 200 codes.
const precisions = new Map<string, number>();

/** Minor-unit digits of a currency (EUR 2, JPY 0), as Intl knows them. */
function currencyPrecision(currency: string): number {
  let digits = precisions.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    if (precisions.size < 1000) precisions.set(currency, digits);
  }
  return digits;
}

function pricingOf(activity: OctoActivity, quantity: number): OctoPricing {
  const amount = activity.priceMinor * quantity;
  return {
    original: amount,
    retail: amount,
    net: null,
    currency: activity.currency,
    currencyPrecision: currencyPrecision(activity.currency),
    includedTaxes: [],
  };
}

const unitPricingOf = (activity: OctoActivity) => [{ unitId: OCTO_UNIT_ID, ...pricingOf(activity, 1) }];

const availabilityTypeOf = (activity: OctoActivity) => (activity.openingTime ? 'OPENING_HOURS' : 'START_TIME');
const openingHoursOf = (activity: OctoActivity) =>
  activity.openingTime && activity.closingTime ? [{ from: activity.openingTime, to: activity.closingTime }] : [];

export function toOctoUnit(activity: OctoActivity, view: OctoView): OctoUnit {
  return {
    id: OCTO_UNIT_ID,
    internalName: 'Adult',
    reference: 'ADULT',
    type: 'ADULT',
    restrictions: { minAge: 0, maxAge: 100, idRequired: false, minQuantity: null, maxQuantity: activity.maxParticipants, paxCount: 1, accompaniedBy: [] },
    requiredContactFields: [],
    ...(view.pricing ? { pricingFrom: [pricingOf(activity, 1)] } : {}),
  };
}

export function toOctoOption(activity: OctoActivity, view: OctoView): OctoOption {
  return {
    id: OCTO_OPTION_ID,
    default: true,
    internalName: activity.name,
    reference: null,
    availabilityLocalStartTimes: activity.openingTime ? [] : activity.startTimes.length > 0 ? activity.startTimes : ['00:00'],
    cancellationCutoff: `${activity.cancellationCutoffMinutes} minutes`,
    cancellationCutoffAmount: activity.cancellationCutoffMinutes,
    cancellationCutoffUnit: 'minute',
    requiredContactFields: ['firstName', 'lastName', 'emailAddress'],
    restrictions: { minUnits: 1, maxUnits: activity.maxParticipants },
    units: [toOctoUnit(activity, view)],
  };
}

export function toOctoProduct(activity: OctoActivity, view: OctoView): OctoProduct {
  return {
    id: activity.activityId,
    internalName: activity.name,
    reference: String(activity.internalId),
    locale: 'en',
    timeZone: activity.timeZone,
    allowFreesale: false,
    instantConfirmation: true,
    instantDelivery: true,
    availabilityRequired: true,
    availabilityType: availabilityTypeOf(activity),
    deliveryFormats: ['QRCODE'],
    deliveryMethods: ['TICKET'],
    redemptionMethod: 'DIGITAL',
    options: [toOctoOption(activity, view)],
    ...(view.pricing ? { defaultCurrency: activity.currency, availableCurrencies: [activity.currency], pricingPer: 'UNIT' as const, includeTax: true } : {}),
  };
}

/** An availability id's local date and time; null when it is not a local date-time with an offset. */
export function parseAvailabilityId(id: string): { date: string; time: string } | null {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}):00(?:[+-]\d{2}:\d{2}|Z)$/.exec(id);
  if (!match || !isCalendarDate(match[1]!) || !isClockTime(match[2]!)) return null;
  return { date: match[1]!, time: match[2]! };
}

/** Free places of a timeslot as a reseller may book them: none once it is closed or has started. */
const vacanciesOf = (slot: OctoSlot) => (slot.open && !slot.started ? Math.max(0, slot.capacity - slot.booked) : 0);

/** SOLD_OUT with no place left, LIMITED with fewer than half of them, CLOSED when closed or started. */
function statusOf(open: boolean, vacancies: number, capacity: number): OctoAvailabilityStatus {
  if (!open) return 'CLOSED';
  if (vacancies === 0) return 'SOLD_OUT';
  return vacancies * 2 < capacity ? 'LIMITED' : 'AVAILABLE';
}

export function toOctoAvailability(activity: OctoActivity, slot: OctoSlot, view: OctoView & { units: number | null }): OctoAvailability {
  const vacancies = vacanciesOf(slot);
  const status = statusOf(slot.open && !slot.started, vacancies, slot.capacity);
  const id = formatInZone(slot.startsAt, activity.timeZone);
  return {
    id,
    localDateTimeStart: id,
    localDateTimeEnd: formatInZone(slot.endsAt, activity.timeZone),
    allDay: activity.openingTime !== null,
    available: vacancies > 0 && (view.units === null || view.units <= vacancies),
    status,
    vacancies,
    capacity: slot.capacity,
    maxUnits: Math.min(vacancies, activity.maxParticipants),
    utcCutoffAt: utcInstant(slot.startsAt),
    openingHours: openingHoursOf(activity),
    ...(view.pricing ? { unitPricing: unitPricingOf(activity), ...(view.units ? { pricing: pricingOf(activity, view.units) } : {}) } : {}),
  };
}

/** Every local day from `from` to `to`, each with the bookable timeslots' free places and capacity. */
export function toOctoCalendar(
  activity: OctoActivity,
  slots: readonly OctoSlot[],
  from: string,
  to: string,
  view: OctoView & { units: number | null },
): OctoCalendarDay[] {
  const byDate = new Map<string, { vacancies: number; capacity: number; bookable: number }>();
  for (const slot of slots) {
    if (!slot.open || slot.started) continue;
    const day = byDate.get(slot.localDate) ?? { vacancies: 0, capacity: 0, bookable: 0 };
    day.vacancies += vacanciesOf(slot);
    day.capacity += slot.capacity;
    day.bookable += 1;
    byDate.set(slot.localDate, day);
  }
  const days: OctoCalendarDay[] = [];
  // Counted, not compared: the day after 9999-12-31 is no YYYY-MM-DD string, and one that sorts before it.
  for (let i = 0, count = daysBetween(from, to); i <= count; i++) {
    const date = addDays(from, i);
    const day = byDate.get(date);
    const vacancies = day?.vacancies ?? 0;
    const capacity = day?.capacity ?? 0;
    days.push({
      localDate: date,
      available: vacancies > 0 && (view.units === null || view.units <= vacancies),
      status: statusOf(day !== undefined, vacancies, capacity),
      vacancies,
      capacity,
      // A closed day still shows the hours the product keeps (OCTO wants them on every OPENING_HOURS day); its status says it is closed.
      openingHours: openingHoursOf(activity),
      ...(view.pricing ? { unitPricingFrom: unitPricingOf(activity), ...(view.units ? { pricingFrom: pricingOf(activity, view.units) } : {}) } : {}),
    });
  }
  return days;
}

/** A local date range of a request: both calendar dates, in order, at most a year. */
export function checkOctoDateRange(from: string, to: string): void {
  if (!isCalendarDate(from)) throw octoBadRequest(`localDateStart ${CALENDAR_DATE_RULE}.`);
  if (!isCalendarDate(to)) throw octoBadRequest(`localDateEnd ${CALENDAR_DATE_RULE}.`);
  if (to < from) throw octoBadRequest('localDateEnd must not be before localDateStart.');
  if (daysBetween(from, to) + 1 > OCTO_MAX_RANGE_DAYS) throw octoBadRequest(`The date range must be at most ${OCTO_MAX_RANGE_DAYS} days.`);
}

/** The units a request asks for, as a number of participants: every unit id must be ours. */
export function participantsOf(units: readonly { unitId: string }[]): number {
  for (const unit of units) if (unit.unitId !== OCTO_UNIT_ID) throw invalidUnitId(unit.unitId);
  return units.length;
}

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const present = (value: string | null | undefined): string | undefined =>
  value === null || value === undefined || value.trim() === '' ? undefined : value.trim();

/** The customer members an OCTO contact gives (those it leaves empty stay out). */
export type OctoCustomer = Pick<CustomerDetails, 'FirstName' | 'LastName' | 'Email'> & { Phone?: string };

/**
 * Lower-case particles that begin a family name ("van der Berg", "da Silva", "de la Cruz"): a full name splits before
 * the first of them, so that they stay with the family name instead of ending the first name ("Zoë van der" + "Berg").
 */
const SURNAME_PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'das',
  'do',
  'dos',
  'du',
  'la',
  'le',
  'ten',
  'ter',
  'bin',
  'al',
  'el',
  'y',
]);

/** A full name as first and last name: before a family name's particle when there is one, else at the last space. */
export function splitFullName(full: string): { first: string; last: string } {
  const words = full.split(/\s+/);
  if (words.length === 1) return { first: full, last: full };
  const particle = words.findIndex((word, i) => i > 0 && i < words.length - 1 && SURNAME_PARTICLES.has(word));
  const at = particle > 0 ? particle : words.length - 1;
  return { first: words.slice(0, at).join(' '), last: words.slice(at).join(' ') };
}

/** An OCTO contact as the booking's customer: first and last name (or the full name split: splitFullName), email, phone. */
export function customerOfContact(contact: OctoContactRequest | undefined): OctoCustomer {
  if (!contact) return {};
  let first = present(contact.firstName);
  let last = present(contact.lastName);
  const full = present(contact.fullName);
  if (full && (!first || !last)) {
    const split = splitFullName(full);
    first ??= split.first;
    last ??= split.last;
  }
  const email = present(contact.emailAddress);
  if (email !== undefined && !EMAIL.test(email)) throw octoBadRequest('contact.emailAddress must be an email address.');
  const phone = present(contact.phoneNumber);
  return {
    ...(first ? { FirstName: first.slice(0, 100) } : {}),
    ...(last ? { LastName: last.slice(0, 100) } : {}),
    ...(email ? { Email: email } : {}),
    ...(phone ? { Phone: phone } : {}),
  };
}

export function contactOfCustomer(customer: Record<string, unknown>): OctoContact {
  const text = (member: string) => (typeof customer[member] === 'string' ? customer[member] : null);
  const first = text('FirstName');
  const last = text('LastName');
  const full = [first, last].filter((part) => part !== null).join(' ');
  return {
    fullName: full === '' ? null : full,
    firstName: first,
    lastName: last,
    emailAddress: text('Email'),
    phoneNumber: text('Phone'),
    locales: [],
    postalCode: null,
    country: null,
    notes: null,
  };
}

const EMPTY_CONTACT: OctoContact = {
  fullName: null,
  firstName: null,
  lastName: null,
  emailAddress: null,
  phoneNumber: null,
  locales: [],
  postalCode: null,
  country: null,
  notes: null,
};

export const OCTO_STATUS: Record<BookingStatus, 'ON_HOLD' | 'CONFIRMED' | 'CANCELLED' | 'EXPIRED'> = {
  on_hold: 'ON_HOLD',
  confirmed: 'CONFIRMED',
  cancelled: 'CANCELLED',
  expired: 'EXPIRED',
};

/** What an OCTO booking answer is made of (the OCTO repository's booking record has all of it). */
export interface OctoBookingFacts {
  reference: string;
  status: BookingStatus;
  octoUuid: string;
  octoUnitItems: readonly { uuid: string; unitId: string }[];
  octoContactNotes: string | null;
  /** A sandbox booking (a test key's): OCTO's testMode. */
  test: boolean;
  startsAtInstant: Date;
  endsAtInstant: Date;
  participants: number;
  customer: Record<string, unknown>;
  paymentReference: string | null;
  note: string | null;
  expiresAt: Date | null;
  cancelledAt: Date | null;
  cancellationReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  confirmedAt: Date | null;
  unitPriceMinor: number;
  currency: string;
  now: Date;
}

/** The ticket reference of a booking's n-th participant (1-based): its booking reference and number. */
export const ticketReferenceOf = (reference: string, n: number) => `${reference}-${n}`;

export function toOctoBooking(booking: OctoBookingFacts, activity: OctoActivity, view: OctoView): OctoBooking {
  const status = OCTO_STATUS[booking.status];
  const product = toOctoProduct(activity, view);
  const option = product.options[0]!;
  const unit = option.units[0]!;
  const availabilityId = formatInZone(booking.startsAtInstant, activity.timeZone);
  const live = status === 'ON_HOLD' || status === 'CONFIRMED';
  const cutoff = booking.startsAtInstant.getTime() - activity.cancellationCutoffMinutes * 60_000;
  const soldAs = { ...activity, priceMinor: booking.unitPriceMinor, currency: booking.currency };
  const items = booking.octoUnitItems.length === booking.participants ? booking.octoUnitItems : [];
  const unitItems: OctoUnitItem[] = items.map((item, i) => ({
    uuid: item.uuid,
    resellerReference: null,
    supplierReference: ticketReferenceOf(booking.reference, i + 1),
    unitId: item.unitId,
    unit,
    status,
    utcRedeemedAt: null,
    contact: EMPTY_CONTACT,
    ticket: {
      redemptionMethod: 'DIGITAL',
      utcRedeemedAt: null,
      deliveryOptions: status === 'CONFIRMED' ? [{ deliveryFormat: 'QRCODE', deliveryValue: ticketReferenceOf(booking.reference, i + 1) }] : [],
    },
    ...(view.pricing ? { pricing: pricingOf(soldAs, 1) } : {}),
  }));
  const confirmedAt = booking.confirmedAt ?? (status === 'CONFIRMED' || (status === 'CANCELLED' && booking.expiresAt === null) ? booking.createdAt : null);
  return {
    id: booking.octoUuid,
    uuid: booking.octoUuid,
    testMode: booking.test,
    resellerReference: booking.paymentReference,
    supplierReference: booking.reference,
    status,
    utcCreatedAt: utcInstant(booking.createdAt),
    utcUpdatedAt: utcInstant(booking.updatedAt),
    utcExpiresAt: (status === 'ON_HOLD' || status === 'EXPIRED') && booking.expiresAt ? utcInstant(booking.expiresAt) : null,
    utcRedeemedAt: null,
    utcConfirmedAt: status === 'ON_HOLD' || status === 'EXPIRED' || !confirmedAt ? null : utcInstant(confirmedAt),
    productId: activity.activityId,
    product,
    optionId: OCTO_OPTION_ID,
    option,
    cancellable: live && booking.now.getTime() < cutoff,
    cancellation:
      status === 'CANCELLED'
        ? { refund: 'FULL', reason: booking.cancellationReason, utcCancelledAt: utcInstant(booking.cancelledAt ?? booking.updatedAt) }
        : null,
    freesale: false,
    availabilityId,
    availability: {
      id: availabilityId,
      localDateTimeStart: availabilityId,
      localDateTimeEnd: formatInZone(booking.endsAtInstant, activity.timeZone),
      allDay: activity.openingTime !== null,
      openingHours: openingHoursOf(activity),
    },
    contact: { ...contactOfCustomer(booking.customer), notes: booking.octoContactNotes },
    notes: booking.note,
    deliveryMethods: ['TICKET'],
    voucher: null,
    unitItems,
    ...(view.pricing ? { pricing: pricingOf(soldAs, booking.participants) } : {}),
  };
}
