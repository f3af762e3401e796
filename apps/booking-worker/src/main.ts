// Composition root of the booking worker: the outbox relay, the hold sweeper, the waitlist's offers, the sweeper of
// unreferenced files, the sales report's fold and the scrape-time gauges on the start-up every worker shares (packages/shutdown start-worker.ts). It runs the booking
// side's background work apart from the metering worker, so each is scaled for its own load. On SIGTERM/SIGINT it lets
// the passes in flight finish (up to SHUTDOWN_TIMEOUT_MS), then closes its connections.
import { openFileStore } from '@backbone/file-store';
import { closeQueues, openQueues } from '@backbone/publisher';
import { startWorker } from '@backbone/shutdown';
import { loadBookingWorkerConfig } from './config.js';
import { startFileSweeper, type FileSweeper } from './file-sweeper.js';
import { startHoldSweeper, type HoldSweeper } from './hold-sweeper.js';
import { startOutboxRelay, type OutboxRelay } from './outbox-relay.js';
import { startSalesFold } from './sales-fold.js';
import { startWaitlistOffers, type WaitlistOffers } from './waitlist-offers.js';
import { collectScrapeGauges } from './scrape-gauges.js';

const config = loadBookingWorkerConfig();

await startWorker({
  name: 'booking-worker',
  title: 'booking worker',
  config,
  stopping: 'shutting down: no new passes, finishing the ones in flight',
  graceOver: 'grace period over: exiting in the middle of a pass (what it had not committed is done again by the next one)',
  // Commands fail fast on the producer connection: a relay pass or a scrape does not hang while Redis is away.
  start: ({ logger, pool, producer }) => {
    const queues = openQueues(producer, config.QUEUE_PREFIX, (err) => logger.warn({ err }, 'outbox queue connection error'));
    const relay: OutboxRelay | null = config.OUTBOX_RELAY_ENABLED
      ? startOutboxRelay({
          pool,
          queues,
          batchSize: config.OUTBOX_RELAY_BATCH_SIZE,
          intervalMs: config.OUTBOX_RELAY_INTERVAL_MS,
          maxBacklog: config.OUTBOX_QUEUE_MAX_BACKLOG,
          logger,
        })
      : null;
    const sweeper: HoldSweeper | null = config.HOLD_SWEEPER_ENABLED
      ? startHoldSweeper({ pool, intervalMs: config.HOLD_SWEEPER_INTERVAL_MS, batchSize: config.HOLD_SWEEPER_BATCH_SIZE, logger })
      : null;
    const waitlist: WaitlistOffers | null = config.WAITLIST_OFFERS_ENABLED
      ? startWaitlistOffers({ pool, intervalMs: config.WAITLIST_OFFERS_INTERVAL_MS, batchSize: config.WAITLIST_OFFERS_BATCH_SIZE, logger })
      : null;
    const files: FileSweeper | null = config.FILE_SWEEPER_ENABLED
      ? startFileSweeper({
          pool,
          fileStore: openFileStore(config),
          intervalMs: config.FILE_SWEEPER_INTERVAL_MS,
          batchSize: config.FILE_SWEEPER_BATCH_SIZE,
          logger,
        })
      : null;
    const salesFold = startSalesFold({ pool, logger });
    const gauges = config.METRICS_ENABLED ? collectScrapeGauges({ pool, connection: producer, prefix: config.QUEUE_PREFIX, logger }) : null;
    return {
      summary: { relay: relay !== null, sweeper: sweeper !== null, waitlist: waitlist !== null, fileSweeper: files !== null, prefix: config.QUEUE_PREFIX },
      stop: async () => {
        await Promise.all([relay?.stop(), sweeper?.stop(), waitlist?.stop(), files?.stop(), salesFold.stop()]);
      },
      close: async () => {
        await gauges?.close();
        await closeQueues(queues);
      },
    };
  },
});
