// The operator's sale books through the point of sale (or the online shop), never as a partner: the channel is decided
// before anything is booked.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@backbone/domain';
import { createSale } from '../src/create-sale.js';
import { rejectionOf, untouchablePool, WENT_ON_TO_READ } from './untouchable.js';

const sale = {
  ActivityID: '00000000-0000-4000-8000-0000000000bb',
  Date: '2026-06-10',
  Time: '10:00',
  Participants: 2,
  Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
};
// Whether createSale throws at once or rejects, the caller awaits it.
const sell = (channel?: string) =>
  Promise.resolve().then(() =>
    createSale(
      { pool: untouchablePool },
      { accountId: '00000000-0000-4000-8000-0000000000aa', apiKeyId: null, userId: 'user-1', sale, ...(channel ? { channel } : {}) },
    ),
  );

describe('createSale', () => {
  it("refuses a partner's channel and any unknown one, naming the operator's", async () => {
    for (const channel of ['ota', 'phone', 'POS']) {
      const error = await rejectionOf(sell(channel));
      expect(error, channel).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toEqual([
        { field: 'channel', message: 'channel must be online or pos (partners book through the partner API).' },
      ]);
    }
  });

  it('books through the point of sale unless told, or the online shop', async () => {
    for (const channel of [undefined, 'pos', 'online']) expect(((await rejectionOf(sell(channel))) as Error).message).toBe(WENT_ON_TO_READ);
  });
});
