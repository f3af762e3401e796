// The hold sweeper: marks holds whose expiry has passed as expired, gives their places back and emits booking.expired,
// through the expire-lapsed-holds use case. Places are free from the expiry instant anyway (reads and reservations
// do not count a lapsed hold); the sweeper makes the state and the event follow within about an interval. Several
// sweepers may run side by side: each takes rows the others do not hold (SKIP LOCKED).
import type { Logger } from 'pino';
import type { Pool } from '@backbone/db';
import { expireLapsedHolds } from '@backbone/use-cases';

export interface HoldSweeper {
  /** Finishes the pass in flight, then stops. */
  stop(): Promise<void>;
}

export function startHoldSweeper(options: { pool: Pool; intervalMs: number; batchSize: number; logger: Logger }): HoldSweeper {
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
      let released = 0;
      try {
        released = await expireLapsedHolds(options, options.batchSize);
        if (released > 0) options.logger.info({ released }, 'expired holds released');
      } catch (err) {
        options.logger.warn({ err }, 'hold sweep failed');
      }
      // A full batch means more may be due: go on at once.
      if (released < options.batchSize && !stopping) await pause();
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
