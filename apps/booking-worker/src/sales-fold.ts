// The sales report's fold: moves past days' per-timeslot sums into one row per day (packages/db sales-fold.repository),
// so a report over a year reads a few rows per day, not per timeslot. It never changes what a report says, only how
// much it reads: a pass that fails or a worker that is down leaves reports as exact and a little slower. Several
// folds may run side by side (each takes rows the others do not hold).
import type { Logger } from 'pino';
import { foldBookingSales, salesFoldBefore, type Pool } from '@backbone/db';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';

export type SalesFold = PassLoop;

/** A minute between passes: a day's rows become foldable once a day, and a late change adds a row or two. */
export const SALES_FOLD_INTERVAL_MS = 60_000;
const SALES_FOLD_BATCH_SIZE = 10_000;

export function startSalesFold(options: { pool: Pool; logger: Logger; intervalMs?: number }): SalesFold {
  return startPassLoop(options.intervalMs ?? SALES_FOLD_INTERVAL_MS, async () => {
    try {
      const folded = await foldBookingSales(options.pool, salesFoldBefore(new Date()), SALES_FOLD_BATCH_SIZE);
      if (folded > 0) options.logger.info({ folded }, 'sales sums of past days folded');
      return folded < SALES_FOLD_BATCH_SIZE ? 'pause' : 'again';
    } catch (err) {
      options.logger.warn({ err }, 'sales fold failed');
      return 'pause';
    }
  });
}
