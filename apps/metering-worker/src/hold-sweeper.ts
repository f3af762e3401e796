// The hold sweeper: marks holds whose ExpiresAt has passed as expired, gives their places back and writes one
// booking.expired event each (releaseLapsedHolds, one statement). Correctness does not wait for it: an expired hold's
// places are free from its expiry on (availability and the reservation never count it); the sweeper makes the status
// and the event follow. Rows locked by a confirm or cancel in flight are skipped and left to them. One statement per
// timeslot, so several sweepers may run side by side without deadlocking on the timeslots' rows.
import type { Logger } from 'pino';
import { listTimeslotsWithLapsedHolds, releaseLapsedHolds, type Pool } from '@backbone/db';

export interface HoldSweeperOptions {
  pool: Pool;
  /** Timeslots swept per pass. */
  batchSize: number;
  intervalMs: number;
  logger: Logger;
}

export interface HoldSweeper {
  /** Finishes the pass in flight, then stops. */
  stop(): Promise<void>;
}

/** Sweeps in a loop: batch after batch while holds are due, then a pause of `intervalMs`. */
export function startHoldSweeper(options: HoldSweeperOptions): HoldSweeper {
  let stopping = false;
  let wake: (() => void) | null = null;
  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.intervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (!stopping) {
      let timeslots = 0;
      try {
        const due = await listTimeslotsWithLapsedHolds(options.pool, options.batchSize);
        timeslots = due.length;
        let released = 0;
        for (const timeslotId of due) released += await releaseLapsedHolds(options.pool, { timeslotId, limit: 1000 });
        if (released > 0) options.logger.debug({ released, timeslots }, 'lapsed holds expired');
      } catch (err) {
        options.logger.warn({ err }, 'hold sweep failed');
      }
      if (timeslots < options.batchSize && !stopping) await pause();
    }
  };
  const running = loop();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await running;
    },
  };
}
