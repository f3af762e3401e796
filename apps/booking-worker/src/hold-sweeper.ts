// The hold sweeper: marks holds whose expiry has passed as expired, gives their places back and emits booking.expired,
// through the expire-lapsed-holds use case. Places are free from the expiry instant anyway (reads and reservations
// do not count a lapsed hold); the sweeper makes the state and the event follow within about an interval. Several
// sweepers may run side by side: each takes rows the others do not hold (SKIP LOCKED). Each pass also deletes the
// sandbox's test bookings older than 30 days (issue 40), as many as a batch.
import type { Logger } from 'pino';
import { deleteOldTestBookings, type Pool } from '@backbone/db';
import { expireLapsedHolds } from '@backbone/use-cases';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';

export type HoldSweeper = PassLoop;

export function startHoldSweeper(options: { pool: Pool; intervalMs: number; batchSize: number; logger: Logger }): HoldSweeper {
  return startPassLoop(options.intervalMs, async () => {
    try {
      const { timeslots, released } = await expireLapsedHolds(options, options.batchSize);
      if (released > 0) options.logger.info({ released, timeslots }, 'expired holds released');
      const deleted = await deleteOldTestBookings(options.pool, options.batchSize);
      if (deleted > 0) options.logger.info({ deleted }, 'old test bookings deleted');
      // A full batch means more may be due: go on at once.
      return timeslots < options.batchSize && deleted < options.batchSize ? 'pause' : 'again';
    } catch (err) {
      options.logger.warn({ err }, 'hold sweep failed');
      return 'pause';
    }
  });
}
