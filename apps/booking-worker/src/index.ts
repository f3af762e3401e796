// What other workspaces may use of the booking worker: its parts started in-process. Its configuration is the separate
// entry './config', so reading the environment's schema does not load BullMQ.
export { startFileSweeper, type FileSweeper } from './file-sweeper.js';
export { startHoldSweeper, type HoldSweeper } from './hold-sweeper.js';
export { SALES_FOLD_INTERVAL_MS, startSalesFold, type SalesFold } from './sales-fold.js';
export { startWaitlistOffers, type WaitlistOffers } from './waitlist-offers.js';
export { OUTBOX_JOB_NAMES, relayOutboxBatch, startOutboxRelay, type OutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
export { collectScrapeGauges, MONITORED_QUEUES, type ScrapeGauges, type ScrapeGaugesOptions } from './scrape-gauges.js';
