// What other workspaces may use of the webhook worker: starting it in-process (tests, benchmarks). Its configuration is
// the separate entry './config', so reading the environment's schema does not load BullMQ.
export { createWebhookSender, USER_AGENT, type AttemptResult, type WebhookMessage, type WebhookSender } from './send-webhook.js';
export { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './webhook-worker.js';
