// The sales report's range is checked before anything is read: To on or after From, at most 366 days, both counted.
import { describe, expect, it } from 'vitest';
import { ValidationError } from '@backbone/domain';
import { getOperatorSalesReport } from '../src/operator-reports.js';
import { rejectionOf, untouchablePool, WENT_ON_TO_READ } from './untouchable.js';

const report = (from: string, to: string) => getOperatorSalesReport({ pool: untouchablePool }, { accountId: '00000000-0000-4000-8000-0000000000aa', from, to });

describe('getOperatorSalesReport', () => {
  it('refuses a range that ends before it starts, or is longer than 366 days, naming To', async () => {
    const before = await rejectionOf(report('2026-06-02', '2026-06-01'));
    expect(before).toBeInstanceOf(ValidationError);
    expect((before as ValidationError).errors).toEqual([{ field: 'To', message: 'must be on or after From.' }]);
    const long = await rejectionOf(report('2028-01-01', '2029-01-01'));
    expect((long as ValidationError).errors).toEqual([{ field: 'To', message: 'must be at most 366 days after From, both counted.' }]);
  });

  it('reads a single day and a range of 366 days', async () => {
    expect(((await rejectionOf(report('2026-06-01', '2026-06-01'))) as Error).message).toBe(WENT_ON_TO_READ);
    expect(((await rejectionOf(report('2028-01-01', '2028-12-31'))) as Error).message).toBe(WENT_ON_TO_READ);
  });
});
