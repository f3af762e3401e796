// OCTO's refusals that come before anything is read: ids that cannot be UUIDs are never sent to PostgreSQL (OCTO's own
// INVALID_* errors echo them), and a bookings list must say what to look for. What follows them reads the database.
import { describe, expect, it } from 'vitest';
import { OctoError } from '@backbone/domain';
import {
  cancelOctoBooking,
  checkOctoAvailability,
  confirmOctoBooking,
  extendOctoBooking,
  getOctoBooking,
  listOctoBookings,
  reserveOctoBooking,
  updateOctoBooking,
} from '../src/octo.js';
import { WENT_ON_TO_READ, rejectionOf, untouchablePool } from './untouchable.js';

const deps = { pool: untouchablePool };
const caller = { accountId: '00000000-0000-4000-8000-0000000000aa', partnerId: '00000000-0000-4000-8000-0000000000cc', apiKeyId: null, test: false };
const view = { pricing: false };
const UUID = '00000000-0000-4000-8000-0000000000d1';
const PRODUCT = '00000000-0000-4000-8000-0000000000bb';

async function octoErrorOf(promise: Promise<unknown>): Promise<OctoError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(OctoError);
  return error as OctoError;
}

const goesOnToRead = async (promise: Promise<unknown>) => expect(((await rejectionOf(promise)) as Error).message).toBe(WENT_ON_TO_READ);

describe('a booking uuid that cannot be one', () => {
  it('is INVALID_BOOKING_UUID, echoed, for every operation on a booking', async () => {
    const bad = 'ABC; DROP';
    for (const call of [
      () => getOctoBooking(deps, caller, bad, view),
      () => extendOctoBooking(deps, caller, bad, 10, view),
      () => confirmOctoBooking(deps, caller, bad, { contact: {} }, view),
      () => updateOctoBooking(deps, caller, bad, {}, view),
      () => cancelOctoBooking(deps, caller, bad, {}, view),
    ]) {
      const error = await octoErrorOf(call());
      expect(error.code).toBe('INVALID_BOOKING_UUID');
      expect(error.echo).toEqual({ uuid: bad });
    }
  });

  it('is looked up when it is a UUID, in any case', async () => {
    await goesOnToRead(getOctoBooking(deps, caller, UUID.toUpperCase(), view));
  });
});

describe('reserveOctoBooking', () => {
  const reservation = { productId: PRODUCT, optionId: 'DEFAULT', availabilityId: '2026-06-10T10:00:00+01:00', unitItems: [{ unitId: 'adult' }] };

  it("refuses a reseller's uuid that is not a UUID, and a product id that is not one, before looking anything up", async () => {
    expect((await octoErrorOf(reserveOctoBooking(deps, caller, { ...reservation, uuid: 'mine-1' }, view))).echo).toEqual({ uuid: 'mine-1' });
    const product = await octoErrorOf(reserveOctoBooking(deps, caller, { ...reservation, productId: 'kayak' }, view));
    expect(product.code).toBe('INVALID_PRODUCT_ID');
    expect(product.echo).toEqual({ productId: 'kayak' });
  });

  it('looks the product up when the ids are UUIDs', async () => {
    await goesOnToRead(reserveOctoBooking(deps, caller, { ...reservation, uuid: UUID }, view));
  });
});

describe('checkOctoAvailability', () => {
  it('refuses a product id that is not a UUID before looking anything up', async () => {
    const error = await octoErrorOf(checkOctoAvailability(deps, caller.accountId, { productId: 'kayak', optionId: 'DEFAULT', localDate: '2026-06-10' }, view));
    expect(error.code).toBe('INVALID_PRODUCT_ID');
  });
});

describe('listOctoBookings', () => {
  it('asks for a reference or a date range when it has neither', async () => {
    const error = await octoErrorOf(listOctoBookings(deps, caller, {}, view));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('Send resellerReference, supplierReference, localDate, or localDateStart with localDateEnd.');
  });

  it('takes the two ends of a range together, in order, at most a year long', async () => {
    expect((await octoErrorOf(listOctoBookings(deps, caller, { localDateStart: '2026-06-01' }, view))).message).toBe(
      'localDateStart and localDateEnd go together.',
    );
    expect((await octoErrorOf(listOctoBookings(deps, caller, { localDateEnd: '2026-06-01', resellerReference: 'R-1' }, view))).message).toBe(
      'localDateStart and localDateEnd go together.',
    );
    expect((await octoErrorOf(listOctoBookings(deps, caller, { localDateStart: '2026-06-02', localDateEnd: '2026-06-01' }, view))).message).toBe(
      'localDateEnd must not be before localDateStart.',
    );
    expect((await octoErrorOf(listOctoBookings(deps, caller, { localDateStart: '2026-01-01', localDateEnd: '2027-01-02' }, view))).message).toBe(
      'The date range must be at most 366 days.',
    );
  });

  it('refuses a product id that is not a UUID, and looks up a valid request', async () => {
    expect((await octoErrorOf(listOctoBookings(deps, caller, { supplierReference: 'ABCD2345', productId: 'kayak' }, view))).code).toBe('INVALID_PRODUCT_ID');
    await goesOnToRead(listOctoBookings(deps, caller, { supplierReference: 'ABCD2345' }, view));
    await goesOnToRead(listOctoBookings(deps, caller, { localDate: '2026-06-10' }, view));
  });
});
