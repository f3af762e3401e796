// OCTO at /octo through HTTP: supplier, products, calendar and availability, and the booking lifecycle (reserve,
// extend, confirm, update, cancel, get, list) over the same timeslots, capacity and use cases as the partner API;
// repeated uuids, reseller walls and the expiry of a hold.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestTimeslot, futureDate, request, type TestTimeslot } from '@backbone/testkit';
import { createOperator, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
let op: Operator;
let other: string;
let day = 0;

const PRICING = { 'Octo-Capabilities': 'octo/pricing' };

beforeAll(async () => {
  op = await createOperator(db.pool);
  // Another reseller of the same operator: a second ota key with a partner of its own.
  other = await op.keyWith(['ota']);
});

const octo = (method: string, path: string, body?: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  request(server.url, method, `/octo${path}`, { key: options.key ?? op.ota, ...(body === undefined ? {} : { body }), headers: options.headers ?? {} });

async function freshSlot(capacity = 6): Promise<TestTimeslot & { availabilityId: string }> {
  day++;
  const slot = await createTestTimeslot(db.pool, op.activity, { date: futureDate(10 + day), time: '10:00', capacity });
  const res = await octo('POST', '/availability', { productId: op.activity.activityId, optionId: 'DEFAULT', localDate: slot.date });
  expect(res.status).toBe(200);
  return { ...slot, availabilityId: res.body[0].id };
}

const reservation = (slot: { availabilityId: string }, units = 2, extra: Record<string, unknown> = {}) => ({
  productId: op.activity.activityId,
  optionId: 'DEFAULT',
  availabilityId: slot.availabilityId,
  unitItems: Array.from({ length: units }, () => ({ unitId: 'adult' })),
  ...extra,
});

const contact = { fullName: 'Ada Lovelace', emailAddress: 'ada@example.com', phoneNumber: '+442079460958', locales: ['en'], country: 'GB' };

async function booked(date: string): Promise<number> {
  const { rows } = await db.pool.query<{ booked: number }>(`SELECT booked FROM timeslots WHERE activity_id = $1 AND local_date = $2`, [op.activity.id, date]);
  return rows[0]!.booked;
}

describe('OCTO reads', () => {
  it('serves the supplier from the account', async () => {
    const res = await octo('GET', '/supplier');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: op.account.id, name: op.account.name, contact: { website: null, email: null, telephone: null, address: null } });
    expect(res.body.endpoint).toMatch(/\/octo$/);
  });

  it('lists products with one default option and the adult unit, pricing only when asked', async () => {
    await freshSlot();
    const plain = await octo('GET', '/products');
    expect(plain.status).toBe(200);
    const product = plain.body.find((p: { id: string }) => p.id === op.activity.activityId);
    expect(product).toMatchObject({ availabilityType: 'START_TIME', timeZone: 'Europe/Berlin', deliveryMethods: ['TICKET'] });
    expect(product.options[0]).toMatchObject({ id: 'DEFAULT', default: true, availabilityLocalStartTimes: ['10:00'] });
    expect(product.options[0].units[0]).toMatchObject({ id: 'adult', type: 'ADULT' });
    expect(product.defaultCurrency).toBeUndefined();
    expect(plain.headers.get('octo-capabilities')).toBe('');

    const priced = await octo('GET', `/products/${op.activity.activityId}`, undefined, { headers: PRICING });
    expect(priced.status).toBe(200);
    expect(priced.headers.get('octo-capabilities')).toBe('octo/pricing');
    expect(priced.body.options[0].units[0].pricingFrom[0]).toMatchObject({ retail: op.activity.priceMinor, currency: op.activity.currency });
  });

  it('answers the calendar per day and availability by range, date and ids', async () => {
    const slot = await freshSlot(6);
    const calendar = await octo('POST', '/availability/calendar', {
      productId: op.activity.activityId,
      optionId: 'DEFAULT',
      localDateStart: slot.date,
      localDateEnd: futureDate(10 + day + 2),
    });
    expect(calendar.status).toBe(200);
    expect(calendar.body).toHaveLength(3);
    expect(calendar.body[0]).toMatchObject({ localDate: slot.date, available: true, status: 'AVAILABLE', vacancies: 6, capacity: 6 });
    expect(calendar.body[1]).toMatchObject({ available: false, status: 'CLOSED' });

    // The calendar's last possible days: the loop must end at 9999-12-31 (the day after it is no YYYY-MM-DD date, and
    // once sorted before it, so the process looped until it ran out of memory).
    const lastDays = await octo('POST', '/availability/calendar', {
      productId: op.activity.activityId,
      optionId: 'DEFAULT',
      localDateStart: '9999-12-30',
      localDateEnd: '9999-12-31',
    });
    expect(lastDays.status).toBe(200);
    expect(lastDays.body.map((d: { localDate: string }) => d.localDate)).toEqual(['9999-12-30', '9999-12-31']);

    const range = await octo('POST', '/availability', {
      productId: op.activity.activityId,
      optionId: 'DEFAULT',
      localDateStart: slot.date,
      localDateEnd: slot.date,
    });
    expect(range.body).toHaveLength(1);
    expect(range.body[0]).toMatchObject({ id: slot.availabilityId, localDateTimeStart: slot.availabilityId, allDay: false, vacancies: 6, status: 'AVAILABLE' });
    expect(range.body[0].id).toMatch(/^\d{4}-\d{2}-\d{2}T10:00:00\+0[12]:00$/);
    expect(range.body[0].utcCutoffAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const byId = await octo(
      'POST',
      '/availability',
      { productId: op.activity.activityId, optionId: 'DEFAULT', availabilityIds: [slot.availabilityId], units: [{ id: 'adult', quantity: 2 }] },
      { headers: PRICING },
    );
    expect(byId.body).toHaveLength(1);
    expect(byId.body[0].pricing).toMatchObject({ retail: op.activity.priceMinor * 2 });
  });
});

describe('OCTO booking lifecycle', () => {
  it('reserves, extends, confirms with tickets, updates and cancels through the partner use cases', async () => {
    const slot = await freshSlot(6);
    const reserved = await octo('POST', '/bookings', reservation(slot, 2, { resellerReference: 'RES-1' }));
    expect(reserved.status).toBe(200);
    const booking = reserved.body;
    expect(booking).toMatchObject({
      status: 'ON_HOLD',
      utcConfirmedAt: null,
      cancellation: null,
      resellerReference: 'RES-1',
      availabilityId: slot.availabilityId,
    });
    expect(booking.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(booking.unitItems).toHaveLength(2);
    expect(booking.unitItems[0].ticket.deliveryOptions).toEqual([]);
    expect(booking.utcExpiresAt).toMatch(/Z$/);
    expect(await booked(slot.date)).toBe(2);

    const extended = await octo('POST', `/bookings/${booking.uuid}/extend`, { expirationMinutes: 45 });
    expect(extended.status).toBe(200);
    expect(Date.parse(extended.body.utcExpiresAt)).toBeGreaterThan(Date.parse(booking.utcExpiresAt));

    const confirmed = await octo('POST', `/bookings/${booking.uuid}/confirm`, {
      contact,
      unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }, { unitId: 'adult' }],
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({
      status: 'CONFIRMED',
      utcExpiresAt: null,
      contact: { firstName: 'Ada', lastName: 'Lovelace', emailAddress: 'ada@example.com' },
    });
    expect(confirmed.body.unitItems).toHaveLength(3);
    expect(confirmed.body.unitItems[2].ticket.deliveryOptions[0].deliveryValue).toBe(`${booking.supplierReference}-3`);
    expect(await booked(slot.date)).toBe(3);

    const other = await freshSlot(6);
    const moved = await octo('PATCH', `/bookings/${booking.uuid}`, { availabilityId: other.availabilityId, notes: 'Vegetarian 🥕' });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ availabilityId: other.availabilityId, notes: 'Vegetarian 🥕', status: 'CONFIRMED' });
    expect(await booked(slot.date)).toBe(0);
    expect(await booked(other.date)).toBe(3);

    const got = await octo('GET', `/bookings/${booking.uuid}`);
    expect(got.body).toMatchObject({ uuid: booking.uuid, status: 'CONFIRMED' });
    const listed = await octo('GET', `/bookings?resellerReference=RES-1`);
    expect(listed.body.map((b: { uuid: string }) => b.uuid)).toEqual([booking.uuid]);
    const bySupplier = await octo('GET', `/bookings?supplierReference=${booking.supplierReference}`);
    expect(bySupplier.body).toHaveLength(1);

    const cancelled = await octo('POST', `/bookings/${booking.uuid}/cancel`, { reason: 'Ill' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancellation: { refund: 'FULL', reason: 'Ill' }, cancellable: false });
    expect(await booked(other.date)).toBe(0);
    const again = await octo('DELETE', `/bookings/${booking.uuid}`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('CANCELLED');

    // The partner API sees it as a partner booking of this partner.
    const partner = await request(server.url, 'GET', `/api/v2/ota/partner/booking/${booking.supplierReference}`, { key: op.ota });
    expect(partner.body).toMatchObject({ Channel: 'ota', Status: 'cancelled', PaymentReference: 'RES-1' });
  });

  it('answers a repeated uuid with the same booking, and refuses it with another body', async () => {
    const slot = await freshSlot(6);
    const uuid = crypto.randomUUID();
    const first = await octo('POST', '/bookings', reservation(slot, 1, { uuid }));
    const second = await octo('POST', '/bookings', reservation(slot, 1, { uuid }));
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.supplierReference).toBe(first.body.supplierReference);
    expect(await booked(slot.date)).toBe(1);
    const changed = await octo('POST', '/bookings', reservation(slot, 2, { uuid }));
    expect(changed.status).toBe(400);
    expect(changed.body).toEqual({ error: 'INVALID_BOOKING_UUID', errorMessage: expect.any(String), uuid });
  });

  it('updates the resellerReference and a reservation’s expiry, with a booking.updated event naming the reference', async () => {
    const slot = await freshSlot(6);
    const reserved = await octo('POST', '/bookings', reservation(slot, 1, { resellerReference: 'OLD-REF', expirationMinutes: 5 }));
    expect(reserved.status).toBe(200);
    const { uuid, supplierReference } = reserved.body;

    const updated = await octo('PATCH', `/bookings/${uuid}`, { resellerReference: 'NEW-REF', expirationMinutes: 50 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ resellerReference: 'NEW-REF', status: 'ON_HOLD' });
    expect(Date.parse(updated.body.utcExpiresAt) - Date.now()).toBeGreaterThan(45 * 60_000);
    expect((await octo('GET', `/bookings?resellerReference=NEW-REF`)).body.map((b: { uuid: string }) => b.uuid)).toEqual([uuid]);
    expect((await octo('GET', `/bookings?resellerReference=OLD-REF`)).body).toEqual([]);

    const { rows: events } = await db.pool.query<{ payload: { Changed: string[] } }>(
      `SELECT payload FROM outbox_events WHERE type = 'booking.updated' AND payload->>'Reference' = $1`,
      [supplierReference],
    );
    expect(events.map((e) => e.payload.Changed)).toEqual([['PaymentReference']]);
    const { rows: history } = await db.pool.query<{ action: string }>(
      `SELECT h.action FROM booking_history h JOIN bookings b ON b.id = h.booking_id WHERE b.reference = $1 ORDER BY h.id`,
      [supplierReference],
    );
    expect(history.map((h) => h.action)).toEqual(['extended', 'edited']);

    // Once confirmed there is no expiry to move; the reference can still change, and null removes it.
    await octo('POST', `/bookings/${uuid}/confirm`, { contact });
    const cleared = await octo('PATCH', `/bookings/${uuid}`, { resellerReference: null, expirationMinutes: 30 });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ resellerReference: null, utcExpiresAt: null, status: 'CONFIRMED' });
  });

  it('keeps resellers apart: another reseller’s uuid is INVALID_BOOKING_UUID', async () => {
    const slot = await freshSlot(6);
    const mine = await octo('POST', '/bookings', reservation(slot, 1));
    for (const [method, path] of [
      ['GET', `/bookings/${mine.body.uuid}`],
      ['POST', `/bookings/${mine.body.uuid}/cancel`],
      ['POST', `/bookings/${mine.body.uuid}/extend`],
    ] as const) {
      const res = await octo(method, path, method === 'POST' ? {} : undefined, { key: other });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'INVALID_BOOKING_UUID', uuid: mine.body.uuid });
    }
    const list = await octo('GET', `/bookings?supplierReference=${mine.body.supplierReference}`, undefined, { key: other });
    expect(list.body).toEqual([]);
  });

  it('frees an expired hold’s places at once, and refuses a full slot with UNPROCESSABLE_ENTITY', async () => {
    const slot = await freshSlot(2);
    const held = await octo('POST', '/bookings', reservation(slot, 2));
    const full = await octo('POST', '/bookings', reservation(slot, 1));
    expect(full.status).toBe(400);
    expect(full.body.error).toBe('UNPROCESSABLE_ENTITY');
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE octo_uuid = $1`, [held.body.uuid]);
    const expired = await octo('GET', `/bookings/${held.body.uuid}`);
    expect(expired.body.status).toBe('EXPIRED');
    const availability = await octo('POST', '/availability', {
      productId: op.activity.activityId,
      optionId: 'DEFAULT',
      availabilityIds: [slot.availabilityId],
    });
    expect(availability.body[0].vacancies).toBe(2);
    const next = await octo('POST', '/bookings', reservation(slot, 2));
    expect(next.status).toBe(200);
  });
});

// What the OCTO maintainers' validator found (issue 40), each as the validator sends it.
describe('OCTO as its validator checks it', () => {
  it('keeps the contact’s notes apart from the booking’s, from the confirm and from a PATCH', async () => {
    const slot = await freshSlot(6);
    const reserved = await octo('POST', '/bookings', reservation(slot, 1));
    const uuid = reserved.body.uuid;
    const confirmed = await octo('POST', `/bookings/${uuid}/confirm`, {
      contact: { firstName: 'John', lastName: 'Doe', fullName: 'John Doe', emailAddress: 'johndoe@mail.com', notes: 'Test note' },
      resellerReference: 'Oy1dIJbU',
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.contact.notes).toBe('Test note');
    expect(confirmed.body.notes).toBeNull();

    const updated = await octo('PATCH', `/bookings/${uuid}`, {
      contact: { fullName: 'John Doe', firstName: 'John', lastName: 'Doe', emailAddress: 'johndoe@email.com', notes: 'Test notes contact', locales: ['en'] },
      notes: 'Test note',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ notes: 'Test note', contact: { notes: 'Test notes contact', emailAddress: 'johndoe@email.com' } });
    expect((await octo('GET', `/bookings/${uuid}`)).body.contact.notes).toBe('Test notes contact');

    // A contact sent without notes leaves them; blank notes remove them.
    const kept = await octo('PATCH', `/bookings/${uuid}`, { contact: { fullName: 'John Doe', emailAddress: 'johndoe@email.com' } });
    expect(kept.body.contact.notes).toBe('Test notes contact');
    const cleared = await octo('PATCH', `/bookings/${uuid}`, { contact: { fullName: 'John Doe', emailAddress: 'johndoe@email.com', notes: ' ' } });
    expect(cleared.body.contact.notes).toBeNull();
  });

  it('finds a booking by the resellerReference it was confirmed with', async () => {
    const slot = await freshSlot(6);
    const reserved = await octo('POST', '/bookings', reservation(slot, 1));
    const reference = `R${Math.random().toString(36).slice(2, 9)}`;
    const confirmed = await octo('POST', `/bookings/${reserved.body.uuid}/confirm`, {
      contact: { fullName: 'John Doe', emailAddress: 'johndoe@example.com' },
      resellerReference: reference,
    });
    expect(confirmed.body).toMatchObject({ status: 'CONFIRMED', resellerReference: reference });
    const listed = await octo('GET', `/bookings?resellerReference=${reference}`);
    expect(listed.status).toBe(200);
    expect(listed.body.map((b: { uuid: string; status: string }) => [b.uuid, b.status])).toEqual([[reserved.body.uuid, 'CONFIRMED']]);
  });

  it('refuses a reservation without unit items, or with none, as UNPROCESSABLE_ENTITY, booking nothing', async () => {
    const slot = await freshSlot(6);
    const { unitItems: _, ...withoutUnits } = reservation(slot, 1);
    for (const body of [withoutUnits, { ...withoutUnits, unitItems: [] }]) {
      const res = await octo('POST', '/bookings', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    }
    expect(await booked(slot.date)).toBe(0);
  });

  it('shows the opening hours on a closed day of an OPENING_HOURS product', async () => {
    const museum = await createTestActivity(db.pool, op.account.id, { timeZone: 'Europe/Berlin', openingHours: { from: '09:00', to: '17:00' } });
    const open = await createTestTimeslot(db.pool, museum, { date: futureDate(60), time: '09:00', capacity: 20 });
    const calendar = await octo('POST', '/availability/calendar', {
      productId: museum.activityId,
      optionId: 'DEFAULT',
      localDateStart: open.date,
      localDateEnd: futureDate(61),
    });
    expect(calendar.status).toBe(200);
    expect(calendar.body.map((d: { status: string; openingHours: unknown }) => [d.status, d.openingHours])).toEqual([
      ['AVAILABLE', [{ from: '09:00', to: '17:00' }]],
      ['CLOSED', [{ from: '09:00', to: '17:00' }]],
    ]);
  });
});
