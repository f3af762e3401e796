// The waitlist's offers: each pass settles the offers with their holds (claimed, or expired and passed on) and offers
// the places that freed up (a cancel, a move away, a smaller party, a capacity raised, a hold lapsed) to the earliest
// waiting entries that fit, through the offer-freed-places use case. Whatever freed the places, this pass finds them,
// so no booking path has to know of the waitlist. Several workers may run it side by side: an offer's hold is the
// booking's conditional update and the entry moves only from `waiting`, so two passes never offer one entry twice nor
// hold more places than are free.
import type { Logger } from 'pino';
import type { Pool } from '@backbone/db';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';
import { offerFreedPlaces } from '@backbone/use-cases';

export type WaitlistOffers = PassLoop;

export function startWaitlistOffers(options: { pool: Pool; intervalMs: number; batchSize: number; logger: Logger }): WaitlistOffers {
  return startPassLoop(options.intervalMs, async () => {
    try {
      const { settled, timeslots, offered } = await offerFreedPlaces(options, options.batchSize);
      if (settled > 0 || offered > 0) options.logger.info({ settled, timeslots, offered }, 'waitlist offers');
      return timeslots < options.batchSize ? 'pause' : 'again';
    } catch (err) {
      options.logger.warn({ err }, 'waitlist pass failed');
      return 'pause';
    }
  });
}
