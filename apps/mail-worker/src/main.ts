// Composition root of the mail worker: sends the mail outbox's due messages through SMTP_URL and publishes one
// workflow-email.sent platform event per message the server accepted (src/mail-delivery.ts). Several may run side by
// side. On SIGTERM/SIGINT it lets the batch in flight finish (up to SHUTDOWN_TIMEOUT_MS), then closes its connections.
import { createEventPublisher } from '@backbone/publisher';
import { startWorker } from '@backbone/shutdown';
import { loadMailWorkerConfig } from './config.js';
import { startMailDelivery } from './mail-worker.js';
import { createSmtpSender } from './smtp-sender.js';

const config = loadMailWorkerConfig();

await startWorker({
  name: 'mail-worker',
  title: 'mail worker',
  config,
  stopping: 'shutting down: no new batches, finishing the one in flight',
  graceOver: 'grace period over: exiting in the middle of a batch (its messages stay queued and are sent again)',
  start: ({ logger, pool, producer }) => {
    const sender = createSmtpSender(config.SMTP_URL, config.MAIL_SMTP_CONNECTIONS);
    const publisher = createEventPublisher({
      connection: producer,
      prefix: config.QUEUE_PREFIX,
      onError: (err) => logger.warn({ err }, 'event queue connection error'),
    });
    const deliveries = Array.from({ length: config.MAIL_CONCURRENT_BATCHES }, () =>
      startMailDelivery({
        pool,
        sender,
        publisher,
        from: config.MAIL_FROM,
        publicBaseUrl: config.PUBLIC_BASE_URL,
        batchSize: config.MAIL_BATCH_SIZE,
        intervalMs: config.MAIL_INTERVAL_MS,
        retryBaseMs: config.MAIL_RETRY_BASE_MS,
        giveUpAfterMs: config.MAIL_GIVE_UP_AFTER_MS,
        logger,
      }),
    );
    return {
      summary: { prefix: config.QUEUE_PREFIX, batchSize: config.MAIL_BATCH_SIZE, concurrentBatches: config.MAIL_CONCURRENT_BATCHES },
      stop: async () => {
        await Promise.all(deliveries.map((delivery) => delivery.stop()));
      },
      close: async () => {
        sender.close();
        await publisher.close();
      },
    };
  },
});
