// The bookings sync's cursor, decided before anything is read: a cursor this API did not give is a 422 on Cursor, and
// nothing from it reaches PostgreSQL unless PostgreSQL can take it (a forged instant out of its range was a 500).
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@backbone/domain';
import { syncBookings } from '../src/booking-lifecycle.js';
import { WENT_ON_TO_READ, rejectionOf, untouchablePool } from './untouchable.js';

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const sync = (cursor: string) =>
  syncBookings({ pool: untouchablePool }, { accountId: '00000000-0000-4000-8000-0000000000aa', partnerId: '00000000-0000-4000-8000-0000000000cc', cursor });

async function expectRefused(cursor: string) {
  const error = await rejectionOf(sync(cursor));
  expect(error, Buffer.from(cursor, 'base64url').toString()).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).errors).toEqual([{ field: 'Cursor', message: 'Cursor must be a Next or Resume value of an earlier answer.' }]);
}

describe('syncBookings: the cursor', () => {
  it('takes a cursor of the form it gives out and goes on to read the page', async () => {
    for (const cursor of [
      cursorOf(['1970-01-01T00:00:00.000Z', '0', 0]),
      cursorOf(['2026-06-01T09:00:00.000Z', '18446744073709551615', 9007199254740991]),
      cursorOf(['2026-06-01T10:00:00+01:00', '123', 5]),
    ]) {
      expect(((await rejectionOf(sync(cursor))) as Error).message).toBe(WENT_ON_TO_READ);
    }
  });

  it('refuses text that is no cursor at all', async () => {
    for (const cursor of ['abc', cursorOf(null), cursorOf({ since: '2026-06-01T00:00:00Z' }), cursorOf('2026'), cursorOf([])]) await expectRefused(cursor);
  });

  it('refuses a position that is not a transaction id and a row id', async () => {
    const since = '2026-06-01T09:00:00.000Z';
    for (const [xid, id] of [
      [123, 5],
      ['12a', 5],
      ['', 5],
      ['123456789012345678901', 5],
      ['123', -1],
      ['123', 1.5],
      ['123', '5'],
      ['123', 2 ** 53],
    ]) {
      await expectRefused(cursorOf([since, xid, id]));
    }
  });

  it('refuses a start PostgreSQL cannot hold (JavaScript reads it, PostgreSQL answered "timestamp out of range": a 500)', async () => {
    for (const since of ['-271821-04-20T00:00:00.000Z', '-004714-01-01T00:00:00.000Z']) await expectRefused(cursorOf([since, '0', 0]));
  });

  it('refuses any other start than an instant UpdatedSince would take', async () => {
    for (const since of ['yesterday', 12345, '2026', 'June 1, 2026', '2026-06-01T09:00:00', '0000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z']) {
      await expectRefused(cursorOf([since, '0', 0]));
    }
  });
});
