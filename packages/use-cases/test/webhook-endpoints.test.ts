// The webhook deliveries' cursor, decided before anything is read: nothing from a cursor reaches PostgreSQL unless it
// is a real instant (to the microsecond) and a UUID; anything else is a 422 on Cursor.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@backbone/domain';
import { listWebhookDeliveries } from '../src/webhook-endpoints.js';
import { WENT_ON_TO_READ, rejectionOf, untouchablePool } from './untouchable.js';

const DELIVERY = '00000000-0000-4000-8000-0000000000d1';
const owner = { accountId: '00000000-0000-4000-8000-0000000000aa', partnerId: '00000000-0000-4000-8000-0000000000cc' };
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const list = (cursor: string) => listWebhookDeliveries({ pool: untouchablePool }, owner, { endpointId: '00000000-0000-4000-8000-0000000000e1', cursor });

describe('listWebhookDeliveries: the cursor', () => {
  it('takes a position of the form it gives out and goes on to read the page', async () => {
    for (const createdAt of ['2026-06-01T09:00:00.123456Z', '0001-01-01T00:00:00.000000Z', '2024-02-29T23:59:59.999999Z']) {
      expect(((await rejectionOf(list(cursorOf([createdAt, DELIVERY])))) as Error).message, createdAt).toBe(WENT_ON_TO_READ);
    }
  });

  it('refuses anything else, naming Cursor', async () => {
    for (const cursor of [
      'garbage',
      cursorOf(null),
      cursorOf(['2026-06-01T09:00:00.123456Z']),
      cursorOf(['2026-06-01T09:00:00.123Z', DELIVERY]),
      cursorOf(['2026-06-01T09:00:00.123456+00:00', DELIVERY]),
      cursorOf(['2027-02-30T09:00:00.123456Z', DELIVERY]),
      cursorOf(['0000-06-01T09:00:00.123456Z', DELIVERY]),
      cursorOf(['2026-06-01T24:00:00.000000Z', DELIVERY]),
      cursorOf(['2026-06-01T09:00:00.123456Z', DELIVERY.toUpperCase()]),
      cursorOf(['2026-06-01T09:00:00.123456Z', 'not-a-uuid']),
      cursorOf(['2026-06-01T09:00:00.123456Z', 42]),
    ]) {
      const error = await rejectionOf(list(cursor));
      expect(error, Buffer.from(cursor, 'base64url').toString()).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual([{ field: 'Cursor', message: 'Cursor must be the Next of an earlier answer.' }]);
    }
  });
});
