// The gauges this worker reads at scrape time: the depth and oldest-job age of every queue of the catalog (the
// webhook deliveries' included, whichever process consumes them), the outbox backlog and the disabled webhook
// endpoints. One kind of process reports them, so their series do not multiply with the workers scaled for load: the
// booking worker, which runs wherever the outbox is relayed and needs few replicas (the metering worker grows with
// the event volume). Each replica reports the same values, so dashboards and alerts take max() over them.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { WEBHOOK_DELIVERIES_QUEUE } from '@backbone/contracts';
import { countDisabledWebhookEndpoints, readOutboxBacklog, type Pool } from '@backbone/db';
import { collectDisabledWebhookEndpoints, collectOutboxMetrics, collectQueueMetrics } from '@backbone/metrics';
import { QUEUE_NAMES } from '@backbone/publisher';

export interface ScrapeGaugesOptions {
  pool: Pool;
  /** A producer connection (commands fail fast when Redis is down, so a scrape does not hang). */
  connection: Redis;
  prefix: string;
  logger: Logger;
}

export interface ScrapeGauges {
  /** Unregisters the gauges and closes the queues opened for them. */
  close(): Promise<void>;
}

export const MONITORED_QUEUES: readonly string[] = [...QUEUE_NAMES, WEBHOOK_DELIVERIES_QUEUE];

export function collectScrapeGauges(options: ScrapeGaugesOptions): ScrapeGauges {
  const queues = MONITORED_QUEUES.map((name) => {
    const queue = new Queue(name, { connection: options.connection, prefix: options.prefix });
    queue.on('error', () => undefined);
    return queue;
  });
  const onError = (collector: string, err: unknown) => options.logger.warn({ err, collector }, 'metrics collection failed');
  const removers = [
    collectQueueMetrics(queues, onError),
    collectOutboxMetrics(() => readOutboxBacklog(options.pool), onError),
    collectDisabledWebhookEndpoints(() => countDisabledWebhookEndpoints(options.pool), onError),
  ];
  return {
    async close() {
      for (const remove of removers) remove();
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
