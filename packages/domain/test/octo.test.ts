// OCTO's view of the inventory: products, availabilities and calendar days from activities and timeslots, bookings as
// OCTO answers them, and what an OCTO request gives (availability ids, contacts, units, holds, date ranges). Each shape
// is also checked against its contract schema, so a mapper and its contract cannot drift apart unnoticed.
import { describe, expect, it } from 'vitest';
import { compileValidator, octoAvailabilitySchema, octoBookingSchema, octoCalendarDaySchema, octoProductSchema } from '@backbone/contracts';
import {
  checkOctoDateRange,
  contactOfCustomer,
  customerOfContact,
  holdMinutesOf,
  invalidAvailabilityId,
  invalidBookingUuid,
  invalidOptionId,
  invalidProductId,
  OCTO_DEFAULT_HOLD_MINUTES,
  OCTO_MAX_HOLD_MINUTES,
  OCTO_OPTION_ID,
  OCTO_STATUS,
  OCTO_UNIT_ID,
  OctoError,
  octoUnprocessable,
  parseAvailabilityId,
  participantsOf,
  ticketReferenceOf,
  toOctoAvailability,
  toOctoBooking,
  toOctoCalendar,
  toOctoProduct,
  utcInstant,
  type BookingStatus,
  type OctoActivity,
  type OctoBookingFacts,
  type OctoSlot,
} from '@backbone/domain';

const ACTIVITY_ID = '00000000-0000-4000-8000-0000000000bb';
const UUID = '00000000-0000-4000-8000-0000000000d1';

const activity = (overrides: Partial<OctoActivity> = {}): OctoActivity => ({
  internalId: 42,
  activityId: ACTIVITY_ID,
  name: 'Kayak tour',
  timeZone: 'Europe/Lisbon',
  durationMinutes: 90,
  priceMinor: 4500,
  currency: 'EUR',
  maxParticipants: 6,
  cancellationCutoffMinutes: 60,
  openingTime: null,
  closingTime: null,
  startTimes: ['10:00', '14:00'],
  ...overrides,
});

/** 10:00 in Lisbon (summer time, +01:00) on 2026-06-10. */
const slot = (overrides: Partial<OctoSlot> = {}): OctoSlot => ({
  localDate: '2026-06-10',
  localTime: '10:00',
  startsAt: new Date('2026-06-10T09:00:00.000Z'),
  endsAt: new Date('2026-06-10T10:30:00.000Z'),
  capacity: 10,
  booked: 2,
  open: true,
  started: false,
  ...overrides,
});

const noPricing = { pricing: false };
const withPricing = { pricing: true };

function octoError(run: () => unknown): OctoError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OctoError);
    return error as OctoError;
  }
  throw new Error('expected an OctoError, nothing was thrown');
}

const fitsSchema = (schema: object, value: unknown) => expect(compileValidator(schema, 'body')(value)).toEqual([]);

describe('OCTO errors', () => {
  it('carries its code, the words OCTO uses, and echoes the member it is about', () => {
    expect(invalidProductId('p')).toMatchObject({ code: 'INVALID_PRODUCT_ID', message: 'The productId was missing or invalid.', echo: { productId: 'p' } });
    expect(invalidOptionId('o')).toMatchObject({ code: 'INVALID_OPTION_ID', echo: { optionId: 'o' } });
    expect(invalidAvailabilityId('a')).toMatchObject({ code: 'INVALID_AVAILABILITY_ID', echo: { availabilityId: 'a' } });
    expect(invalidBookingUuid('u')).toMatchObject({ code: 'INVALID_BOOKING_UUID', echo: { uuid: 'u' } });
    expect(octoUnprocessable('why')).toMatchObject({ code: 'UNPROCESSABLE_ENTITY', message: 'why', echo: {} });
  });
});

describe('holdMinutesOf', () => {
  it('holds 30 minutes unless told, and never more than an hour', () => {
    expect(holdMinutesOf(undefined)).toBe(OCTO_DEFAULT_HOLD_MINUTES);
    expect(OCTO_DEFAULT_HOLD_MINUTES).toBe(30);
    expect(holdMinutesOf(5)).toBe(5);
    expect(holdMinutesOf(60)).toBe(60);
    expect(holdMinutesOf(61)).toBe(OCTO_MAX_HOLD_MINUTES);
    expect(OCTO_MAX_HOLD_MINUTES).toBe(60);
  });
});

describe('utcInstant', () => {
  it('writes whole seconds and Z', () => {
    expect(utcInstant(new Date('2026-06-10T09:00:00.999Z'))).toBe('2026-06-10T09:00:00Z');
  });
});

describe('toOctoProduct', () => {
  it('shows an activity as a product with one default option and one adult unit', () => {
    const product = toOctoProduct(activity(), noPricing);
    expect(product).toMatchObject({
      id: ACTIVITY_ID,
      internalName: 'Kayak tour',
      reference: '42',
      timeZone: 'Europe/Lisbon',
      availabilityType: 'START_TIME',
      instantConfirmation: true,
    });
    expect(product.options).toHaveLength(1);
    const option = product.options[0]!;
    expect(option).toMatchObject({
      id: OCTO_OPTION_ID,
      default: true,
      availabilityLocalStartTimes: ['10:00', '14:00'],
      cancellationCutoff: '60 minutes',
      cancellationCutoffAmount: 60,
      cancellationCutoffUnit: 'minute',
      restrictions: { minUnits: 1, maxUnits: 6 },
    });
    expect(option.units).toHaveLength(1);
    expect(option.units[0]).toMatchObject({ id: OCTO_UNIT_ID, type: 'ADULT', restrictions: { maxQuantity: 6, paxCount: 1 } });
    expect(product).not.toHaveProperty('defaultCurrency');
    expect(option.units[0]).not.toHaveProperty('pricingFrom');
    fitsSchema(octoProductSchema, product);
  });

  it('shows prices in minor units with the currency and its precision only with octo/pricing', () => {
    const product = toOctoProduct(activity(), withPricing);
    expect(product).toMatchObject({ defaultCurrency: 'EUR', availableCurrencies: ['EUR'], pricingPer: 'UNIT', includeTax: true });
    expect(product.options[0]!.units[0]!.pricingFrom).toEqual([
      { original: 4500, retail: 4500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] },
    ]);
    fitsSchema(octoProductSchema, product);
  });

  it("takes each currency's minor-unit digits from Intl (JPY 0, BHD 3)", () => {
    const precisionOf = (currency: string) => toOctoProduct(activity({ currency }), withPricing).options[0]!.units[0]!.pricingFrom![0]!.currencyPrecision;
    expect(precisionOf('JPY')).toBe(0);
    expect(precisionOf('BHD')).toBe(3);
    expect(precisionOf('EUR')).toBe(2);
  });

  it('offers an activity with opening hours as OPENING_HOURS without start times, and one without start times at 00:00', () => {
    const open = toOctoProduct(activity({ openingTime: '09:00', closingTime: '18:00' }), noPricing);
    expect(open.availabilityType).toBe('OPENING_HOURS');
    expect(open.options[0]!.availabilityLocalStartTimes).toEqual([]);
    expect(toOctoProduct(activity({ startTimes: [] }), noPricing).options[0]!.availabilityLocalStartTimes).toEqual(['00:00']);
  });
});

describe('parseAvailabilityId', () => {
  it('reads the local date and time of an id with an offset or Z', () => {
    expect(parseAvailabilityId('2026-06-10T10:00:00+01:00')).toEqual({ date: '2026-06-10', time: '10:00' });
    expect(parseAvailabilityId('2026-12-01T23:59:00-05:30')).toEqual({ date: '2026-12-01', time: '23:59' });
    expect(parseAvailabilityId('2026-06-10T10:00:00Z')).toEqual({ date: '2026-06-10', time: '10:00' });
  });

  it('refuses ids that are not a whole-minute local start on a calendar date with an offset', () => {
    for (const id of [
      '2026-06-10T10:00:00',
      '2026-06-10T10:00:30+01:00',
      '2026-06-10T10:00+01:00',
      '2026-02-30T10:00:00+01:00',
      '0000-01-01T10:00:00Z',
      '2026-06-10T24:00:00Z',
      '2026-06-10T10:60:00Z',
      '2026-06-10 10:00:00Z',
      '2026-06-10T10:00:00+0100',
      '',
    ]) {
      expect(parseAvailabilityId(id), id).toBeNull();
    }
  });
});

describe('toOctoAvailability', () => {
  const view = (units: number | null = null, pricing = false) => ({ pricing, units });

  it("gives the slot's local start as its id, its free places and a status by how many are left", () => {
    const availability = toOctoAvailability(activity(), slot(), view());
    expect(availability).toEqual({
      id: '2026-06-10T10:00:00+01:00',
      localDateTimeStart: '2026-06-10T10:00:00+01:00',
      localDateTimeEnd: '2026-06-10T11:30:00+01:00',
      allDay: false,
      available: true,
      status: 'AVAILABLE',
      vacancies: 8,
      capacity: 10,
      maxUnits: 6,
      utcCutoffAt: '2026-06-10T09:00:00Z',
      openingHours: [],
    });
    fitsSchema(octoAvailabilitySchema, availability);
  });

  it('is LIMITED below half the capacity, SOLD_OUT with none left, CLOSED when closed or started', () => {
    expect(toOctoAvailability(activity(), slot({ booked: 5 }), view()).status).toBe('AVAILABLE');
    expect(toOctoAvailability(activity(), slot({ booked: 6 }), view())).toMatchObject({ status: 'LIMITED', vacancies: 4, maxUnits: 4 });
    expect(toOctoAvailability(activity(), slot({ booked: 10 }), view())).toMatchObject({ status: 'SOLD_OUT', vacancies: 0, available: false });
    expect(toOctoAvailability(activity(), slot({ booked: 12 }), view())).toMatchObject({ status: 'SOLD_OUT', vacancies: 0 });
    expect(toOctoAvailability(activity(), slot({ open: false }), view())).toMatchObject({ status: 'CLOSED', vacancies: 0, available: false });
    expect(toOctoAvailability(activity(), slot({ started: true }), view())).toMatchObject({ status: 'CLOSED', vacancies: 0, available: false });
  });

  it('is available for the units asked only when that many places are free', () => {
    expect(toOctoAvailability(activity(), slot(), view(8)).available).toBe(true);
    expect(toOctoAvailability(activity(), slot(), view(9)).available).toBe(false);
  });

  it('prices a unit with octo/pricing, and the units asked when there are some', () => {
    const priced = toOctoAvailability(activity(), slot(), view(3, true));
    expect(priced.unitPricing).toEqual([
      { unitId: 'adult', original: 4500, retail: 4500, net: null, currency: 'EUR', currencyPrecision: 2, includedTaxes: [] },
    ]);
    expect(priced.pricing).toMatchObject({ original: 13500, retail: 13500 });
    expect(toOctoAvailability(activity(), slot(), view(null, true))).not.toHaveProperty('pricing');
    fitsSchema(octoAvailabilitySchema, priced);
  });

  it('shows the opening hours of an activity that has them, as all day', () => {
    expect(toOctoAvailability(activity({ openingTime: '09:00', closingTime: '18:00' }), slot(), view())).toMatchObject({
      allDay: true,
      openingHours: [{ from: '09:00', to: '18:00' }],
    });
  });
});

describe('toOctoCalendar', () => {
  const view = (units: number | null = null) => ({ pricing: false, units });

  it('lists every day of the range, summing the bookable slots of each and leaving out closed or started ones', () => {
    const slots = [
      slot(),
      slot({ localTime: '14:00', booked: 7 }),
      slot({ localDate: '2026-06-11', open: false }),
      slot({ localDate: '2026-06-12', started: true }),
      slot({ localDate: '2026-06-13', booked: 10 }),
    ];
    const days = toOctoCalendar(activity(), slots, '2026-06-10', '2026-06-14', view());
    expect(days.map((d) => [d.localDate, d.status, d.vacancies, d.capacity, d.available])).toEqual([
      ['2026-06-10', 'AVAILABLE', 11, 20, true],
      ['2026-06-11', 'CLOSED', 0, 0, false],
      ['2026-06-12', 'CLOSED', 0, 0, false],
      ['2026-06-13', 'SOLD_OUT', 0, 10, false],
      ['2026-06-14', 'CLOSED', 0, 0, false],
    ]);
    for (const day of days) fitsSchema(octoCalendarDaySchema, day);
  });

  it('says a day is available for the units asked only when the day has that many places', () => {
    expect(toOctoCalendar(activity(), [slot()], '2026-06-10', '2026-06-10', view(8))[0]!.available).toBe(true);
    expect(toOctoCalendar(activity(), [slot()], '2026-06-10', '2026-06-10', view(9))[0]!.available).toBe(false);
  });

  it('shows the opening hours on every day of an OPENING_HOURS product, closed days too', () => {
    const hours = activity({ openingTime: '09:00', closingTime: '18:00' });
    const days = toOctoCalendar(hours, [slot()], '2026-06-10', '2026-06-11', view());
    expect(days.map((d) => [d.status, d.openingHours])).toEqual([
      ['AVAILABLE', [{ from: '09:00', to: '18:00' }]],
      ['CLOSED', [{ from: '09:00', to: '18:00' }]],
    ]);
  });

  it('ends at 9999-12-31 when the range does', () => {
    const days = toOctoCalendar(activity(), [], '9999-12-30', '9999-12-31', view());
    expect(days.map((d) => d.localDate)).toEqual(['9999-12-30', '9999-12-31']);
  });
});

describe('checkOctoDateRange', () => {
  it('takes a single day and a year of 366 days', () => {
    expect(() => checkOctoDateRange('2026-06-10', '2026-06-10')).not.toThrow();
    expect(() => checkOctoDateRange('2028-01-01', '2028-12-31')).not.toThrow();
  });

  it('refuses dates that are not calendar dates, an end before the start, and 367 days, as BAD_REQUEST', () => {
    expect(octoError(() => checkOctoDateRange('2026-02-30', '2026-03-01')).message).toBe(
      'localDateStart must be a calendar date in the form YYYY-MM-DD, from 0001-01-01 to 9999-12-31.',
    );
    expect(octoError(() => checkOctoDateRange('2026-03-01', '0000-01-01')).message).toMatch(/^localDateEnd must be a calendar date/);
    expect(octoError(() => checkOctoDateRange('2026-03-02', '2026-03-01')).message).toBe('localDateEnd must not be before localDateStart.');
    const tooLong = octoError(() => checkOctoDateRange('2027-01-01', '2028-01-02'));
    expect(tooLong.code).toBe('BAD_REQUEST');
    expect(tooLong.message).toBe('The date range must be at most 366 days.');
  });
});

describe('participantsOf', () => {
  it('counts the unit items, each of which must be our one unit', () => {
    expect(participantsOf([])).toBe(0);
    expect(participantsOf([{ unitId: 'adult' }, { unitId: 'adult' }])).toBe(2);
    const error = octoError(() => participantsOf([{ unitId: 'adult' }, { unitId: 'child' }]));
    expect(error.code).toBe('INVALID_UNIT_ID');
    expect(error.echo).toEqual({ unitId: 'child' });
  });
});

describe('customerOfContact', () => {
  it('takes first and last name, e-mail and phone, trimmed, and leaves out what is empty', () => {
    expect(customerOfContact(undefined)).toEqual({});
    expect(
      customerOfContact({ firstName: ' Ana ', lastName: 'Silva', emailAddress: ' ana@example.com ', phoneNumber: '+351 912 345 678', country: 'PT' }),
    ).toEqual({ FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351 912 345 678' });
    expect(customerOfContact({ firstName: '  ', lastName: null, emailAddress: '', phoneNumber: null })).toEqual({});
  });

  it('splits a full name before a family name’s particle or at its last space for the names not given, and uses a one-word name for both', () => {
    expect(customerOfContact({ fullName: 'Ana Maria Silva' })).toEqual({ FirstName: 'Ana Maria', LastName: 'Silva' });
    expect(customerOfContact({ fullName: 'Ana Maria Silva', firstName: 'Ana' })).toEqual({ FirstName: 'Ana', LastName: 'Silva' });
    expect(customerOfContact({ fullName: 'Ana Maria Silva', lastName: 'Costa' })).toEqual({ FirstName: 'Ana Maria', LastName: 'Costa' });
    expect(customerOfContact({ fullName: 'Madonna' })).toEqual({ FirstName: 'Madonna', LastName: 'Madonna' });
    // A family name's particles stay with it (issue 39.10): the name as given, split where a desk would split it.
    expect(customerOfContact({ fullName: 'Zoë van der Berg' })).toEqual({ FirstName: 'Zoë', LastName: 'van der Berg' });
    expect(customerOfContact({ fullName: 'Ana Maria de la Cruz' })).toEqual({ FirstName: 'Ana Maria', LastName: 'de la Cruz' });
    expect(customerOfContact({ fullName: 'Maria da Silva Santos' })).toEqual({ FirstName: 'Maria', LastName: 'da Silva Santos' });
    // Only a lower-case particle is one: a capitalised word may be a middle name, so the last space decides.
    expect(customerOfContact({ fullName: 'Pieter Van Dyke' })).toEqual({ FirstName: 'Pieter Van', LastName: 'Dyke' });
    expect(customerOfContact({ fullName: 'Zé Silva', firstName: 'José', lastName: 'Costa' })).toEqual({ FirstName: 'José', LastName: 'Costa' });
  });

  it('cuts names to the 100 characters a customer name may have', () => {
    const customer = customerOfContact({ firstName: 'a'.repeat(150), lastName: 'b'.repeat(100) });
    expect(customer.FirstName).toBe('a'.repeat(100));
    expect(customer.LastName).toBe('b'.repeat(100));
  });

  it('refuses an e-mail address that is not one, as BAD_REQUEST', () => {
    const error = octoError(() => customerOfContact({ emailAddress: 'ana at example.com' }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('contact.emailAddress must be an email address.');
  });
});

describe('contactOfCustomer', () => {
  it('shows the customer as an OCTO contact with its full name', () => {
    expect(contactOfCustomer({ FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: null })).toEqual({
      fullName: 'Ana Silva',
      firstName: 'Ana',
      lastName: 'Silva',
      emailAddress: 'ana@example.com',
      phoneNumber: null,
      locales: [],
      postalCode: null,
      country: null,
      notes: null,
    });
  });

  it('shows a hold without a customer as an empty contact, and a partial one as what it has', () => {
    expect(contactOfCustomer({ Phone: null })).toMatchObject({ fullName: null, firstName: null, lastName: null, emailAddress: null });
    expect(contactOfCustomer({ LastName: 'Silva', Phone: 7 })).toMatchObject({ fullName: 'Silva', lastName: 'Silva', phoneNumber: null });
  });
});

describe('toOctoBooking', () => {
  const CREATED_AT = new Date('2026-06-01T11:00:00.250Z');
  const facts = (overrides: Partial<OctoBookingFacts> = {}): OctoBookingFacts => ({
    reference: 'ABCD2345',
    status: 'confirmed',
    octoUuid: UUID,
    octoUnitItems: [
      { uuid: '00000000-0000-4000-8000-0000000000e1', unitId: 'adult' },
      { uuid: '00000000-0000-4000-8000-0000000000e2', unitId: 'adult' },
    ],
    octoContactNotes: 'vegetarian',
    test: false,
    startsAtInstant: new Date('2026-06-10T09:00:00.000Z'),
    endsAtInstant: new Date('2026-06-10T10:30:00.000Z'),
    participants: 2,
    customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: null },
    paymentReference: 'RES-1',
    note: 'window seat',
    expiresAt: null,
    cancelledAt: null,
    cancellationReason: null,
    createdAt: CREATED_AT,
    updatedAt: new Date('2026-06-01T11:05:00.000Z'),
    confirmedAt: null,
    unitPriceMinor: 4000,
    currency: 'EUR',
    now: new Date('2026-06-05T12:00:00.000Z'),
    ...overrides,
  });

  it('maps each status', () => {
    expect(Object.entries(OCTO_STATUS)).toEqual([
      ['on_hold', 'ON_HOLD'],
      ['confirmed', 'CONFIRMED'],
      ['cancelled', 'CANCELLED'],
      ['expired', 'EXPIRED'],
    ]);
  });

  it('answers a confirmed booking with its availability, contact, references and a QR ticket per participant', () => {
    const booking = toOctoBooking(facts(), activity(), noPricing);
    expect(booking).toMatchObject({
      id: UUID,
      uuid: UUID,
      status: 'CONFIRMED',
      resellerReference: 'RES-1',
      supplierReference: 'ABCD2345',
      utcCreatedAt: '2026-06-01T11:00:00Z',
      utcUpdatedAt: '2026-06-01T11:05:00Z',
      utcExpiresAt: null,
      // Booked at once, before confirmedAt was recorded: confirmed when it was created.
      utcConfirmedAt: '2026-06-01T11:00:00Z',
      productId: ACTIVITY_ID,
      optionId: 'DEFAULT',
      cancellable: true,
      cancellation: null,
      availabilityId: '2026-06-10T10:00:00+01:00',
      availability: {
        id: '2026-06-10T10:00:00+01:00',
        localDateTimeStart: '2026-06-10T10:00:00+01:00',
        localDateTimeEnd: '2026-06-10T11:30:00+01:00',
        allDay: false,
        openingHours: [],
      },
      // The contact's notes are its own, not the booking's (the validator sends both and expects each back).
      contact: { fullName: 'Ana Silva', emailAddress: 'ana@example.com', notes: 'vegetarian' },
      notes: 'window seat',
    });
    expect(booking.unitItems.map((item) => [item.uuid, item.supplierReference, item.status, item.ticket?.deliveryOptions])).toEqual([
      ['00000000-0000-4000-8000-0000000000e1', 'ABCD2345-1', 'CONFIRMED', [{ deliveryFormat: 'QRCODE', deliveryValue: 'ABCD2345-1' }]],
      ['00000000-0000-4000-8000-0000000000e2', 'ABCD2345-2', 'CONFIRMED', [{ deliveryFormat: 'QRCODE', deliveryValue: 'ABCD2345-2' }]],
    ]);
    expect(booking).not.toHaveProperty('pricing');
    expect(ticketReferenceOf('ABCD2345', 2)).toBe('ABCD2345-2');
    fitsSchema(octoBookingSchema, booking);
  });

  it('prices the booking at the price it was sold at, not the activity’s price now, with octo/pricing', () => {
    const booking = toOctoBooking(facts(), activity({ priceMinor: 9999 }), withPricing);
    expect(booking.pricing).toMatchObject({ original: 8000, retail: 8000, currency: 'EUR' });
    expect(booking.unitItems.map((item) => item.pricing?.retail)).toEqual([4000, 4000]);
    fitsSchema(octoBookingSchema, booking);
  });

  it('shows a hold with its expiry, no confirmation and no tickets yet', () => {
    const booking = toOctoBooking(facts({ status: 'on_hold', expiresAt: new Date('2026-06-01T11:30:00.500Z') }), activity(), noPricing);
    expect(booking).toMatchObject({ status: 'ON_HOLD', utcExpiresAt: '2026-06-01T11:30:00Z', utcConfirmedAt: null, cancellable: true });
    expect(booking.unitItems.every((item) => item.ticket?.deliveryOptions.length === 0)).toBe(true);
    const expired = toOctoBooking(facts({ status: 'expired', expiresAt: new Date('2026-06-01T11:30:00Z') }), activity(), noPricing);
    expect(expired).toMatchObject({ status: 'EXPIRED', utcExpiresAt: '2026-06-01T11:30:00Z', utcConfirmedAt: null, cancellable: false });
  });

  it('shows the recorded confirmation instant when there is one', () => {
    const booking = toOctoBooking(facts({ confirmedAt: new Date('2026-06-02T08:00:00Z') }), activity(), noPricing);
    expect(booking.utcConfirmedAt).toBe('2026-06-02T08:00:00Z');
  });

  it('is cancellable only while live and before the cutoff', () => {
    const at = (now: string, status: BookingStatus = 'confirmed') => toOctoBooking(facts({ now: new Date(now), status }), activity(), noPricing).cancellable;
    expect(at('2026-06-10T07:59:59.999Z')).toBe(true);
    expect(at('2026-06-10T08:00:00.000Z')).toBe(false);
    expect(at('2026-06-05T12:00:00Z', 'cancelled')).toBe(false);
  });

  it('shows a cancellation with its reason and instant (the last update when none was recorded)', () => {
    const cancelled = toOctoBooking(
      facts({ status: 'cancelled', cancelledAt: new Date('2026-06-03T10:00:00Z'), cancellationReason: 'weather' }),
      activity(),
      noPricing,
    );
    expect(cancelled.cancellation).toEqual({ refund: 'FULL', reason: 'weather', utcCancelledAt: '2026-06-03T10:00:00Z' });
    expect(cancelled.utcConfirmedAt).toBe('2026-06-01T11:00:00Z');
    const unrecorded = toOctoBooking(facts({ status: 'cancelled' }), activity(), noPricing);
    expect(unrecorded.cancellation).toEqual({ refund: 'FULL', reason: null, utcCancelledAt: '2026-06-01T11:05:00Z' });
    fitsSchema(octoBookingSchema, cancelled);
  });

  it('shows no confirmation for a hold that was cancelled before it was confirmed', () => {
    const booking = toOctoBooking(facts({ status: 'cancelled', expiresAt: new Date('2026-06-01T11:30:00Z') }), activity(), noPricing);
    expect(booking.utcConfirmedAt).toBeNull();
    expect(booking.utcExpiresAt).toBeNull();
  });

  it('shows no unit items when the stored ones do not match the party (it was resized outside OCTO)', () => {
    expect(toOctoBooking(facts({ participants: 3 }), activity(), noPricing).unitItems).toEqual([]);
  });
});
