// The usage folder: every interval, adds the usage entries written since the last fold to the hourly and daily
// rollups (foldUsageEntries). Summaries are exact without it (they read unfolded entries one by one); it keeps them
// reading rollups, whatever the rate of ingest. Every metering worker runs one; one folds at a time.
import type { Logger } from 'pino';
import { foldUsageEntries, type Pool } from '@backbone/db';
import { countUsageFold } from '@backbone/metrics';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';

export type UsageFolder = PassLoop;

export function startUsageFolder(options: { pool: Pool; intervalMs: number; logger: Logger }): UsageFolder {
  return startPassLoop(options.intervalMs, async () => {
    try {
      const outcome = await foldUsageEntries(options.pool);
      countUsageFold(outcome.result, outcome.result === 'folded' ? outcome.entries : 0);
    } catch (err) {
      countUsageFold('failed');
      options.logger.warn({ err }, 'usage fold failed');
    }
    return 'pause';
  });
}
