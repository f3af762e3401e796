// Composition root of the webhook worker: the fan-out and delivery workers on the start-up every worker shares
// (packages/shutdown start-worker.ts). On SIGTERM/SIGINT it stops taking jobs, lets the attempts in flight finish (up
// to SHUTDOWN_TIMEOUT_MS; unfinished jobs are redelivered to another worker), then closes its connections.
import { startWorker } from '@backbone/shutdown';
import { destinationPolicyFrom } from '@backbone/webhooks';
import { loadWebhookWorkerConfig, retryDelaysOf } from './config.js';
import { createWebhookSender } from './send-webhook.js';
import { startWebhookWorker } from './webhook-worker.js';

const config = loadWebhookWorkerConfig();
const policy = destinationPolicyFrom(config.WEBHOOK_ALLOWED_HOSTS);

await startWorker({
  name: 'webhook-worker',
  title: 'webhook worker',
  config,
  stopping: 'shutting down: no new jobs, finishing attempts in flight',
  graceOver: 'grace period over: exiting with jobs still active (they will be redelivered)',
  start: ({ logger, pool, producer, openConsumer }) => {
    const sender = createWebhookSender({ policy, timeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS });
    const webhooks = startWebhookWorker({
      connection: openConsumer(),
      producer,
      prefix: config.QUEUE_PREFIX,
      pool,
      sender,
      logger,
      deliveryConcurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
      fanOutConcurrency: config.WEBHOOK_FANOUT_CONCURRENCY,
      endpointMaxInFlight: config.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT,
      attemptTimeoutMs: config.WEBHOOK_ATTEMPT_TIMEOUT_MS,
      retryDelaysMs: retryDelaysOf(config),
      disableAfterMs: config.WEBHOOK_DISABLE_AFTER_MS,
      lockDurationMs: config.WORKER_LOCK_DURATION_MS,
      stalledIntervalMs: config.WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: config.WORKER_MAX_STALLED_COUNT,
    });
    return {
      summary: {
        concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
        endpointMaxInFlight: config.WEBHOOK_ENDPOINT_MAX_IN_FLIGHT,
        allowedHosts: policy.allowedHosts,
        prefix: config.QUEUE_PREFIX,
      },
      untilReady: () => Promise.all([...webhooks.fanOut, ...webhooks.delivery].map((worker) => worker.waitUntilReady())),
      stop: () => webhooks.close(),
      close: async () => sender.close(),
    };
  },
});
