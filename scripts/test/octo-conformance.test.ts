// The OCTO validator's core scenarios (octotravel/validator: supplier, products, calendar, availability, reserve,
// extend, confirm, update, cancel, get, list), walked with and without Octo-Capabilities: octo/pricing against an
// account made with the admin CLI as issue 26 describes: one START_TIME and one OPENING_HOURS activity, capacities of
// 6, timeslots for the next 40 days. Every success must be exactly 200 with the members the validator checks (null
// where it wants null), every error exactly its status and body.
import { describe, expect, it } from 'vitest';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { futureDate, request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import { partnerCommands } from '../admin/partner.commands.js';

const db = useTestDatabase();
const redis = useTestRedis();
const server = useTestServer(() => createTestPartnerApp(db.pool));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = async (command: string, options: Record<string, string | boolean>): Promise<any> =>
  JSON.parse(JSON.stringify(await partnerCommands[command]!.run(options, { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix })));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-5][0-9a-f]{3}-[089ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

async function setUp() {
  const account = await run('create-account', {
    name: 'Validator Outdoors',
    'time-zone': 'Europe/London',
    email: 'hello@example.com',
    website: 'https://example.com',
  });
  const key = await run('create-key', { account: account.ID, name: 'OCTO reseller', scopes: 'ota' });
  const tour = await run('create-activity', {
    account: account.ID,
    name: 'Harbour tour',
    duration: '90',
    price: '2500',
    currency: 'GBP',
    'max-participants': '6',
  });
  const gym = await run('create-activity', {
    account: account.ID,
    name: 'Climbing gym',
    'opening-hours': '09:00-18:00',
    price: '1500',
    currency: 'GBP',
    'max-participants': '6',
  });
  expect(gym.OpeningHours).toEqual({ From: '09:00', To: '18:00' });
  const range = { account: account.ID, from: futureDate(1, 'Europe/London'), to: futureDate(40, 'Europe/London'), capacity: '6' };
  await run('generate-timeslots', { ...range, activity: tour.ActivityID, days: 'mon,tue,wed,thu,fri,sat,sun', times: '10:00,14:00' });
  const admission = await run('generate-timeslots', { ...range, activity: gym.ActivityID });
  expect(admission.Created).toBe(40);
  return { key: key.Secret as string, tour: tour.ActivityID as string, gym: gym.ActivityID as string };
}

describe.each([
  ['core', {}],
  ['octo/pricing', { 'Octo-Capabilities': 'octo/pricing' }],
] as const)('the OCTO validator’s core flows (%s)', (capability, headers) => {
  const pricing = capability === 'octo/pricing';

  it('passes every scenario with the exact statuses and bodies', async () => {
    const { key, tour, gym } = await setUp();
    const octo = (method: string, path: string, body?: unknown) =>
      request(server.url, method, `/octo${path}`, { key, headers, ...(body === undefined ? {} : { body }) });
    const ok = async (method: string, path: string, body?: unknown) => {
      const res = await octo(method, path, body);
      expect(res.status, `${method} ${path}: ${res.text}`).toBe(200);
      if (pricing) expect(res.headers.get('octo-capabilities')).toBe('octo/pricing');
      return res.body;
    };
    const error = async (method: string, path: string, body: unknown, expected: Record<string, unknown>) => {
      const res = await octo(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(400);
      expect(res.body).toEqual({ errorMessage: expect.any(String), ...expected });
    };

    // Supplier.
    const supplier = await ok('GET', '/supplier');
    expect(supplier).toMatchObject({ name: 'Validator Outdoors', contact: { email: 'hello@example.com', website: 'https://example.com', telephone: null } });

    // Products.
    const products = await ok('GET', '/products');
    expect(products.map((p: { id: string }) => p.id).sort()).toEqual([tour, gym].sort());
    for (const product of products) {
      expect(product.options).toHaveLength(1);
      expect(product.options[0].units.length).toBeGreaterThan(0);
      if (pricing) {
        expect(product.defaultCurrency).toBe('GBP');
        expect(product.pricingPer).toBe('UNIT');
        for (const unit of product.options[0].units) expect(unit.pricingFrom[0]).toMatchObject({ currency: 'GBP', currencyPrecision: 2 });
      }
    }
    const gymProduct = await ok('GET', `/products/${gym}`);
    expect(gymProduct.availabilityType).toBe('OPENING_HOURS');
    expect(gymProduct.options[0].availabilityLocalStartTimes).toEqual([]);
    const tourProduct = await ok('GET', `/products/${tour}`);
    expect(tourProduct.options[0].availabilityLocalStartTimes).toEqual(['10:00', '14:00']);
    await error('GET', '/products/not-a-product', undefined, { error: 'INVALID_PRODUCT_ID', productId: 'not-a-product' });

    for (const [productId, allDay] of [
      [tour, false],
      [gym, true],
    ] as const) {
      const product = { productId, optionId: 'DEFAULT' };
      const from = futureDate(2, 'Europe/London');
      const to = futureDate(8, 'Europe/London');
      // Calendar.
      const calendar = await ok('POST', '/availability/calendar', {
        ...product,
        localDateStart: from,
        localDateEnd: to,
        units: [{ id: 'adult', quantity: 1 }],
      });
      expect(calendar).toHaveLength(7);
      for (const day of calendar) {
        expect(day).toMatchObject({ available: true, status: 'AVAILABLE' });
        if (allDay) expect(day.openingHours).toEqual([{ from: '09:00', to: '18:00' }]);
        if (pricing) expect(day.unitPricingFrom[0]).toMatchObject({ unitId: 'adult' });
      }
      await error(
        'POST',
        '/availability/calendar',
        { ...product, productId: 'nope', localDateStart: from, localDateEnd: to },
        { error: 'INVALID_PRODUCT_ID', productId: 'nope' },
      );
      await error('POST', '/availability/calendar', { ...product, localDateStart: to, localDateEnd: from }, { error: 'BAD_REQUEST' });

      // Availability: by interval, by date, by ids.
      const interval = await ok('POST', '/availability', { ...product, localDateStart: from, localDateEnd: to });
      expect(interval.length).toBe(allDay ? 7 : 14);
      for (const availability of interval) {
        expect(availability.id).toMatch(LOCAL);
        expect(availability.localDateTimeEnd).toMatch(LOCAL);
        expect(availability.utcCutoffAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
        expect(availability).toMatchObject({ allDay, available: true, status: 'AVAILABLE', vacancies: 6, capacity: 6, maxUnits: 6 });
        expect(availability.openingHours).toEqual(allDay ? [{ from: '09:00', to: '18:00' }] : []);
        if (pricing) expect(availability.unitPricing[0]).toMatchObject({ unitId: 'adult', currency: 'GBP' });
      }
      const byDate = await ok('POST', '/availability', { ...product, localDate: from });
      expect(byDate.length).toBe(allDay ? 1 : 2);
      const byIds = await ok('POST', '/availability', { ...product, availabilityIds: [interval[0].id] });
      expect(byIds.map((a: { id: string }) => a.id)).toEqual([interval[0].id]);
      await error('POST', '/availability', { ...product, optionId: 'nope', localDate: from }, { error: 'INVALID_OPTION_ID', optionId: 'nope' });
      await error('POST', '/availability', { ...product, productId: 'nope', localDate: from }, { error: 'INVALID_PRODUCT_ID', productId: 'nope' });
      await error('POST', '/availability', { ...product }, { error: 'BAD_REQUEST' });

      // Reservation and its errors.
      const availabilityId = interval[0].id;
      const unitItems = [{ unitId: 'adult' }, { unitId: 'adult' }];
      const reserve = { ...product, availabilityId, unitItems };
      const reservation = await ok('POST', '/bookings', reserve);
      expect(reservation.uuid).toMatch(UUID);
      expect(reservation).toMatchObject({ status: 'ON_HOLD', testMode: false, utcConfirmedAt: null, utcRedeemedAt: null, cancellation: null, voucher: null });
      expect(reservation.utcCreatedAt).toMatch(UTC);
      expect(reservation.utcExpiresAt).toMatch(UTC);
      expect(reservation.availability).toMatchObject({ id: availabilityId, allDay });
      expect(reservation.unitItems.map((u: { unitId: string }) => u.unitId)).toEqual(['adult', 'adult']);
      for (const item of reservation.unitItems) expect(item.uuid).toMatch(UUID);
      if (pricing) expect(reservation.pricing).toMatchObject({ retail: (productId === tour ? 2500 : 1500) * 2 });
      await error('POST', '/bookings', { ...reserve, productId: 'nope' }, { error: 'INVALID_PRODUCT_ID', productId: 'nope' });
      await error('POST', '/bookings', { ...reserve, optionId: 'nope' }, { error: 'INVALID_OPTION_ID', optionId: 'nope' });
      await error('POST', '/bookings', { ...reserve, availabilityId: 'nope' }, { error: 'INVALID_AVAILABILITY_ID', availabilityId: 'nope' });
      await error('POST', '/bookings', { ...reserve, unitItems: [{ unitId: 'nope' }] }, { error: 'INVALID_UNIT_ID', unitId: 'nope' });
      // Nothing to book is UNPROCESSABLE_ENTITY, as the validator wants (issue 40).
      await error('POST', '/bookings', { ...product, availabilityId }, { error: 'UNPROCESSABLE_ENTITY' });
      await error('POST', '/bookings', { ...reserve, unitItems: [] }, { error: 'UNPROCESSABLE_ENTITY' });
      const soldOut = await octo('POST', '/bookings', {
        ...product,
        availabilityId: interval[1].id,
        unitItems: Array.from({ length: 6 }, () => ({ unitId: 'adult' })),
      });
      expect(soldOut.status).toBe(200);
      await error('POST', '/bookings', { ...product, availabilityId: interval[1].id, unitItems }, { error: 'UNPROCESSABLE_ENTITY' });

      // Extend.
      const extended = await ok('POST', `/bookings/${reservation.uuid}/extend`, { expirationMinutes: 30 });
      expect(extended.status).toBe('ON_HOLD');
      await error('POST', `/bookings/${UUID_NONE}/extend`, { expirationMinutes: 30 }, { error: 'INVALID_BOOKING_UUID', uuid: UUID_NONE });

      // Get the reservation.
      expect((await ok('GET', `/bookings/${reservation.uuid}`)).status).toBe('ON_HOLD');

      // Confirm (with unit items changed), and its errors.
      const contact = {
        fullName: 'John Doe',
        firstName: 'John',
        lastName: 'Doe',
        emailAddress: 'johndoe@email.com',
        phoneNumber: '+447840739436',
        locales: ['en'],
        country: 'GB',
      };
      await error('POST', `/bookings/${UUID_NONE}/confirm`, { contact }, { error: 'INVALID_BOOKING_UUID', uuid: UUID_NONE });
      await error('POST', `/bookings/${reservation.uuid}/confirm`, { contact, unitItems: [{ unitId: 'nope' }] }, { error: 'INVALID_UNIT_ID', unitId: 'nope' });
      const booking = await ok('POST', `/bookings/${reservation.uuid}/confirm`, {
        contact,
        resellerReference: `REF-${capability}-${productId}`,
        unitItems: [...unitItems, { unitId: 'adult' }],
      });
      expect(booking).toMatchObject({ status: 'CONFIRMED', utcExpiresAt: null, cancellation: null, resellerReference: `REF-${capability}-${productId}` });
      expect(booking.utcConfirmedAt).toMatch(UTC);
      expect(booking.contact).toMatchObject({ fullName: 'John Doe', emailAddress: 'johndoe@email.com' });
      expect(booking.unitItems).toHaveLength(3);
      for (const item of booking.unitItems) expect(item.ticket.deliveryOptions[0].deliveryValue).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-\d$/);

      // Update: contact, date, unit items.
      const renamed = await ok('PATCH', `/bookings/${booking.uuid}`, { contact: { ...contact, firstName: 'Jane', fullName: 'Jane Doe' } });
      expect(renamed.contact.firstName).toBe('Jane');
      const moved = await ok('PATCH', `/bookings/${booking.uuid}`, { availabilityId: interval[2].id });
      expect(moved.availabilityId).toBe(interval[2].id);
      const smaller = await ok('PATCH', `/bookings/${booking.uuid}`, { unitItems: [{ unitId: 'adult' }] });
      expect(smaller.unitItems).toHaveLength(1);
      await error('PATCH', `/bookings/${booking.uuid}`, { availabilityId: interval[1].id, unitItems }, { error: 'UNPROCESSABLE_ENTITY' });

      // Get and list.
      expect((await ok('GET', `/bookings/${booking.uuid}`)).status).toBe('CONFIRMED');
      expect((await ok('GET', `/bookings?resellerReference=REF-${capability}-${productId}`)).map((b: { uuid: string }) => b.uuid)).toEqual([booking.uuid]);
      expect((await ok('GET', `/bookings?supplierReference=${booking.supplierReference}`)).map((b: { uuid: string }) => b.uuid)).toEqual([booking.uuid]);
      expect((await ok('GET', `/bookings?localDateStart=${from}&localDateEnd=${to}&productId=${productId}`)).length).toBeGreaterThanOrEqual(2);
      await error('GET', '/bookings', undefined, { error: 'BAD_REQUEST' });
      await error('GET', `/bookings/${UUID_NONE}`, undefined, { error: 'INVALID_BOOKING_UUID', uuid: UUID_NONE });

      // Cancel a reservation, then a booking; a cancel of an unknown uuid.
      const another = await ok('POST', '/bookings', { ...product, availabilityId: interval[3].id, unitItems });
      const cancelledHold = await ok('POST', `/bookings/${another.uuid}/cancel`, { reason: 'Customer changed their mind' });
      expect(cancelledHold).toMatchObject({ status: 'CANCELLED', utcExpiresAt: null, cancellation: { reason: 'Customer changed their mind', refund: 'FULL' } });
      const cancelled = await ok('POST', `/bookings/${booking.uuid}/cancel`, {});
      expect(cancelled).toMatchObject({ status: 'CANCELLED', utcExpiresAt: null });
      expect(cancelled.utcConfirmedAt).toMatch(UTC);
      expect(cancelled.cancellation.utcCancelledAt).toMatch(UTC);
      await error('POST', `/bookings/${UUID_NONE}/cancel`, {}, { error: 'INVALID_BOOKING_UUID', uuid: UUID_NONE });
    }
  });
});

const UUID_NONE = '00000000-0000-4000-8000-000000000000';
