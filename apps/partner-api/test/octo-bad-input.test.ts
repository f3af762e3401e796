// Bad input on /octo: each case answered in OCTO's error form ({ error, errorMessage, <field> }) with its exact
// status, never a 500 and never problem+json, and nothing written.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestTimeslot, futureDate, request } from '@backbone/testkit';
import { createOperator, databaseFingerprint, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi({ bodyLimit: '64kb' });
let op: Operator;
let usageKey: string;
let availabilityId: string;
let hold: string;
let expiredHold: string;
const NONE = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  op = await createOperator(db.pool, { activity: { maxParticipants: 6 } });
  usageKey = await op.keyWith(['usage:read']);
  const slot = await createTestTimeslot(db.pool, op.activity, { date: futureDate(7), time: '10:00', capacity: 10 });
  await createTestTimeslot(db.pool, op.activity, { date: futureDate(9), time: '10:00', capacity: 10 });
  const found = await request(server.url, 'POST', '/octo/availability', {
    key: op.ota,
    body: { productId: op.activity.activityId, optionId: 'DEFAULT', localDate: slot.date },
  });
  availabilityId = found.body[0].id;
  const reserve = () =>
    request(server.url, 'POST', '/octo/bookings', {
      key: op.ota,
      body: { productId: op.activity.activityId, optionId: 'DEFAULT', availabilityId, unitItems: [{ unitId: 'adult' }] },
    });
  hold = (await reserve()).body.uuid;
  expiredHold = (await reserve()).body.uuid;
  await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 minute' WHERE octo_uuid = $1`, [expiredHold]);
});

type Case = {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  key?: 'none' | 'usage' | 'unknown';
  status: number;
  error: string;
  echo?: Record<string, string>;
};

const product = () => ({ productId: op.activity.activityId, optionId: 'DEFAULT' });
const reservation = (extra: Record<string, unknown> = {}) => ({ ...product(), availabilityId, unitItems: [{ unitId: 'adult' }], ...extra });
const otherOffset = () => availabilityId.replace(/[+-]\d{2}:\d{2}$/, '+05:00');
const contact = { fullName: 'Ada Lovelace', emailAddress: 'ada@example.com' };

const cases = (): Case[] => [
  { name: 'no key', method: 'GET', path: '/supplier', key: 'none', status: 401, error: 'UNAUTHORIZED' },
  { name: 'a malformed Authorization header', method: 'GET', path: '/products', headers: { authorization: 'Basic abc' }, status: 401, error: 'UNAUTHORIZED' },
  { name: 'an unknown key', method: 'GET', path: '/products', key: 'unknown', status: 401, error: 'UNAUTHORIZED' },
  { name: 'a key without the ota scope', method: 'GET', path: '/supplier', key: 'usage', status: 403, error: 'FORBIDDEN' },
  { name: 'an unknown path', method: 'GET', path: '/nothing-here', status: 404, error: 'NOT_FOUND' },
  { name: 'an unknown method', method: 'PUT', path: '/supplier', body: {}, status: 404, error: 'NOT_FOUND' },
  { name: 'malformed JSON', method: 'POST', path: '/bookings', raw: '{"productId":', status: 400, error: 'BAD_REQUEST' },
  {
    name: 'a body that is not JSON',
    method: 'POST',
    path: '/availability',
    raw: 'productId=1',
    headers: { 'content-type': 'text/plain' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  { name: 'a body too large', method: 'POST', path: '/bookings', raw: JSON.stringify({ notes: 'x'.repeat(100_000) }), status: 413, error: 'BAD_REQUEST' },
  { name: 'a product id that is no UUID', method: 'GET', path: '/products/abc', status: 400, error: 'INVALID_PRODUCT_ID', echo: { productId: 'abc' } },
  { name: 'an unknown product', method: 'GET', path: `/products/${NONE}`, status: 400, error: 'INVALID_PRODUCT_ID', echo: { productId: NONE } },
  {
    name: 'availability without productId',
    method: 'POST',
    path: '/availability',
    body: { optionId: 'DEFAULT', localDate: futureDate(7) },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability with a numeric productId',
    method: 'POST',
    path: '/availability',
    body: { ...product(), productId: 7, localDate: futureDate(7) },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability of an unknown option',
    method: 'POST',
    path: '/availability',
    body: { ...product(), optionId: 'VIP', localDate: futureDate(7) },
    status: 400,
    error: 'INVALID_OPTION_ID',
    echo: { optionId: 'VIP' },
  },
  {
    name: 'availability on 30 February',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDate: '2027-02-30' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability over more than a year',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDateStart: '2027-01-01', localDateEnd: '2028-01-02' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability ending before it starts',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDateStart: '2027-01-05', localDateEnd: '2027-01-01' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability by date and range at once',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDate: '2027-01-05', localDateStart: '2027-01-05', localDateEnd: '2027-01-06' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability with a start and no end',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDateStart: '2027-01-05' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'availability by a malformed id',
    method: 'POST',
    path: '/availability',
    body: { ...product(), availabilityIds: ['tomorrow'] },
    status: 400,
    error: 'INVALID_AVAILABILITY_ID',
    echo: { availabilityId: 'tomorrow' },
  },
  { name: 'availability by no ids', method: 'POST', path: '/availability', body: { ...product(), availabilityIds: [] }, status: 400, error: 'BAD_REQUEST' },
  {
    name: 'availability for an unknown unit',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDate: futureDate(7), units: [{ id: 'child', quantity: 1 }] },
    status: 400,
    error: 'INVALID_UNIT_ID',
    echo: { unitId: 'child' },
  },
  {
    name: 'availability for a negative quantity',
    method: 'POST',
    path: '/availability',
    body: { ...product(), localDate: futureDate(7), units: [{ id: 'adult', quantity: -1 }] },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'a calendar without its end',
    method: 'POST',
    path: '/availability/calendar',
    body: { ...product(), localDateStart: '2027-01-01' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'a calendar from a word',
    method: 'POST',
    path: '/availability/calendar',
    body: { ...product(), localDateStart: 'tomorrow', localDateEnd: '2027-01-01' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'a calendar in year 0000',
    method: 'POST',
    path: '/availability/calendar',
    body: { ...product(), localDateStart: '0000-01-01', localDateEnd: '0000-01-02' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'a calendar of an unknown product',
    method: 'POST',
    path: '/availability/calendar',
    body: { ...product(), productId: 'x', localDateStart: '2027-01-01', localDateEnd: '2027-01-02' },
    status: 400,
    error: 'INVALID_PRODUCT_ID',
    echo: { productId: 'x' },
  },
  { name: 'a reservation as an array', method: 'POST', path: '/bookings', body: [reservation()], status: 400, error: 'BAD_REQUEST' },
  {
    name: 'a reservation uuid that is no UUID',
    method: 'POST',
    path: '/bookings',
    body: reservation({ uuid: 'abc' }),
    status: 400,
    error: 'INVALID_BOOKING_UUID',
    echo: { uuid: 'abc' },
  },
  {
    name: 'an availability id with another offset',
    method: 'POST',
    path: '/bookings',
    body: reservation({ availabilityId: otherOffset() }),
    status: 400,
    error: 'INVALID_AVAILABILITY_ID',
    echo: { availabilityId: otherOffset() },
  },
  {
    name: 'an availability id of a day without a slot',
    method: 'POST',
    path: '/bookings',
    body: reservation({ availabilityId: `${futureDate(8)}T10:00:00+01:00` }),
    status: 400,
    error: 'INVALID_AVAILABILITY_ID',
    echo: { availabilityId: `${futureDate(8)}T10:00:00+01:00` },
  },
  {
    name: 'unit items that are no list',
    method: 'POST',
    path: '/bookings',
    body: reservation({ unitItems: { unitId: 'adult' } }),
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'a unit item uuid that is no UUID',
    method: 'POST',
    path: '/bookings',
    body: reservation({ unitItems: [{ unitId: 'adult', uuid: 'x' }] }),
    status: 400,
    error: 'BAD_REQUEST',
  },
  { name: 'a unit item without its unit', method: 'POST', path: '/bookings', body: reservation({ unitItems: [{}] }), status: 400, error: 'BAD_REQUEST' },
  { name: 'a zero-minute hold', method: 'POST', path: '/bookings', body: reservation({ expirationMinutes: 0 }), status: 400, error: 'BAD_REQUEST' },
  {
    name: 'more unit items than a booking may have',
    method: 'POST',
    path: '/bookings',
    body: reservation({ unitItems: Array.from({ length: 7 }, () => ({ unitId: 'adult' })) }),
    status: 400,
    error: 'UNPROCESSABLE_ENTITY',
  },
  {
    name: 'a contact email that is none',
    method: 'POST',
    path: '/bookings',
    body: reservation({ contact: { emailAddress: 'not-an-email' } }),
    status: 400,
    error: 'BAD_REQUEST',
  },
  { name: 'notes too long', method: 'POST', path: '/bookings', body: reservation({ notes: 'n'.repeat(2001) }), status: 400, error: 'BAD_REQUEST' },
  // Free text with a NUL or a lone surrogate never reaches PostgreSQL; an id with one is not of its form.
  { name: 'notes with a NUL', method: 'POST', path: '/bookings', body: reservation({ notes: 'a\u0000' }), status: 400, error: 'BAD_REQUEST' },
  {
    name: 'a unit id with a NUL',
    method: 'POST',
    path: '/bookings',
    body: reservation({ unitItems: [{ unitId: 'adult\u0000' }] }),
    status: 400,
    error: 'INVALID_UNIT_ID',
    echo: { unitId: 'adult\u0000' },
  },
  {
    name: 'a resellerReference with a NUL',
    method: 'POST',
    path: '/bookings',
    body: reservation({ resellerReference: 'a\u0000' }),
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'extending a uuid that is no UUID',
    method: 'POST',
    path: '/bookings/abc/extend',
    body: {},
    status: 400,
    error: 'INVALID_BOOKING_UUID',
    echo: { uuid: 'abc' },
  },
  { name: 'extending by words', method: 'POST', path: `/bookings/${hold}/extend`, body: { expirationMinutes: 'ten' }, status: 400, error: 'BAD_REQUEST' },
  { name: 'extending an expired hold', method: 'POST', path: `/bookings/${expiredHold}/extend`, body: {}, status: 400, error: 'UNPROCESSABLE_ENTITY' },
  { name: 'confirming without a contact', method: 'POST', path: `/bookings/${hold}/confirm`, body: {}, status: 400, error: 'BAD_REQUEST' },
  {
    name: 'confirming without an email',
    method: 'POST',
    path: `/bookings/${hold}/confirm`,
    body: { contact: { fullName: 'Ada Lovelace' } },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'confirming with a NUL in the email',
    method: 'POST',
    path: `/bookings/${hold}/confirm`,
    body: { contact: { fullName: 'Ana', emailAddress: 'a\u0000@x.com' } },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'confirming with NUL notes',
    method: 'POST',
    path: `/bookings/${hold}/confirm`,
    body: { contact, notes: '\u0000' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'confirming an unknown uuid',
    method: 'POST',
    path: `/bookings/${NONE}/confirm`,
    body: { contact },
    status: 400,
    error: 'INVALID_BOOKING_UUID',
    echo: { uuid: NONE },
  },
  {
    name: 'confirming an expired hold',
    method: 'POST',
    path: `/bookings/${expiredHold}/confirm`,
    body: { contact },
    status: 400,
    error: 'UNPROCESSABLE_ENTITY',
  },
  {
    name: 'confirming with an unknown unit',
    method: 'POST',
    path: `/bookings/${hold}/confirm`,
    body: { contact, unitItems: [{ unitId: 'child' }] },
    status: 400,
    error: 'INVALID_UNIT_ID',
    echo: { unitId: 'child' },
  },
  {
    name: 'moving to a malformed availability',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { availabilityId: 'soon' },
    status: 400,
    error: 'INVALID_AVAILABILITY_ID',
    echo: { availabilityId: 'soon' },
  },
  {
    name: 'moving to an unknown product',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { productId: NONE, availabilityId },
    status: 400,
    error: 'INVALID_PRODUCT_ID',
    echo: { productId: NONE },
  },
  {
    name: 'updating the fullName with a NUL',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { contact: { fullName: 'a\u0000b' } },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'updating the email with a NUL',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { contact: { emailAddress: 'a\u0000@x.com' } },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'updating the phone with a NUL',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { contact: { phoneNumber: '+351\u0000' } },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'updating the fullName to a lone surrogate',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { contact: { fullName: '\ud800' } },
    status: 400,
    error: 'BAD_REQUEST',
  },
  {
    name: 'updating the resellerReference with a NUL',
    method: 'PATCH',
    path: `/bookings/${hold}`,
    body: { resellerReference: 'a\u0000' },
    status: 400,
    error: 'BAD_REQUEST',
  },
  { name: 'updating the notes with a NUL', method: 'PATCH', path: `/bookings/${hold}`, body: { notes: 'a\u0000' }, status: 400, error: 'BAD_REQUEST' },
  {
    name: 'updating an unknown uuid',
    method: 'PATCH',
    path: `/bookings/${NONE}`,
    body: { notes: 'x' },
    status: 400,
    error: 'INVALID_BOOKING_UUID',
    echo: { uuid: NONE },
  },
  {
    name: 'cancelling with a reason too long',
    method: 'POST',
    path: `/bookings/${hold}/cancel`,
    body: { reason: 'r'.repeat(501) },
    status: 400,
    error: 'BAD_REQUEST',
  },
  { name: 'cancelling with a NUL reason', method: 'POST', path: `/bookings/${hold}/cancel`, body: { reason: '\u0000' }, status: 400, error: 'BAD_REQUEST' },
  { name: 'deleting with a NUL reason', method: 'DELETE', path: `/bookings/${hold}`, body: { reason: '\u0000' }, status: 400, error: 'BAD_REQUEST' },
  { name: 'cancelling an expired hold', method: 'POST', path: `/bookings/${expiredHold}/cancel`, body: {}, status: 400, error: 'UNPROCESSABLE_ENTITY' },
  { name: 'deleting an unknown uuid', method: 'DELETE', path: `/bookings/${NONE}`, status: 400, error: 'INVALID_BOOKING_UUID', echo: { uuid: NONE } },
  { name: 'a bare booking list', method: 'GET', path: '/bookings', status: 400, error: 'BAD_REQUEST' },
  { name: 'a list from a start without an end', method: 'GET', path: '/bookings?localDateStart=2027-01-01', status: 400, error: 'BAD_REQUEST' },
  { name: 'a list on no date', method: 'GET', path: '/bookings?localDate=someday', status: 400, error: 'BAD_REQUEST' },
  { name: 'a list by a resellerReference with a NUL', method: 'GET', path: '/bookings?resellerReference=%00', status: 400, error: 'BAD_REQUEST' },
  { name: 'a list by a supplierReference with a NUL', method: 'GET', path: '/bookings?supplierReference=%00', status: 400, error: 'BAD_REQUEST' },
  { name: 'a path that cannot be decoded', method: 'GET', path: '/bookings/%E0%A4%A', status: 400, error: 'BAD_REQUEST' },
];

describe('OCTO bad input', () => {
  it('answers every case in OCTO’s error form with its status, and writes nothing', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThanOrEqual(40);
    const before = await databaseFingerprint(db.pool);
    for (const c of all) {
      const key = c.key === 'none' ? undefined : c.key === 'usage' ? usageKey : c.key === 'unknown' ? 'bk_unknownunknownunknownunknown' : op.ota;
      const res = await request(server.url, c.method, `/octo${c.path}`, {
        ...(key && !c.headers?.authorization ? { key } : {}),
        headers: { ...(c.raw !== undefined && !c.headers?.['content-type'] ? { 'content-type': 'application/json' } : {}), ...c.headers },
        ...(c.raw !== undefined ? { rawBody: c.raw } : c.body !== undefined ? { body: c.body } : {}),
      });
      expect(res.status, `${c.name}: ${res.text}`).toBe(c.status);
      expect(res.headers.get('content-type'), c.name).toMatch(/^application\/json/);
      expect(res.body, c.name).toEqual({ error: c.error, errorMessage: expect.any(String), ...c.echo });
    }
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});
