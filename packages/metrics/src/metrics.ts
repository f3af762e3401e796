// Every metric the services expose, defined once on the one registry of the process. Names follow Prometheus
// conventions (backbone_ prefix, the unit in the name, _total for counters); every label takes values from a small,
// fixed set (an operationId, a status code, an outcome), never a path, a key or an account id, so the number of series
// stays bounded whatever the traffic.
import { Counter, Histogram, Registry } from 'prom-client';

/** The registry of this process: what its metrics server exposes. */
export const registry = new Registry();

export const httpRequestsTotal = new Counter({
  name: 'backbone_http_requests_total',
  help: 'HTTP requests answered, by operation (OpenAPI operationId, or a fixed label such as unmatched), method and status code.',
  labelNames: ['operation', 'method', 'status'] as const,
  registers: [registry],
});

export const httpRequestDurationSeconds = new Histogram({
  name: 'backbone_http_request_duration_seconds',
  help: 'Time from the request reaching the app to its answer being handed to the socket, by operation and status code.',
  labelNames: ['operation', 'status'] as const,
  // Finer below 25 ms than the client's default buckets: the partner reads answer in a few milliseconds.
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

/**
 * created and held: a booking made (confirmed at once, or on hold); full: refused for want of places (409);
 * unavailable: refused, the timeslot closed, started or missing (409); confirmed: a hold confirmed; cancelled;
 * expired: a lapsed hold released by the sweeper.
 */
export type BookingOutcome = 'created' | 'held' | 'full' | 'unavailable' | 'confirmed' | 'cancelled' | 'expired';

export const bookingsTotal = new Counter({
  name: 'backbone_bookings_total',
  help: 'Booking outcomes by channel: created, held, full and unavailable (refused, 409), confirmed (a hold), cancelled, expired (a hold released by the sweeper).',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

/** `channel` is the booking's own (ota, online, pos: the bookings table allows no other). */
export function countBookings(channel: string, outcome: BookingOutcome, count = 1): void {
  if (count > 0) bookingsTotal.inc({ channel, outcome }, count);
}

/** api_single: POST of one entry; api_batch: entries of a batch POST; built_in_meter: the worker's platform-event entries. */
export type UsageEntrySource = 'api_single' | 'api_batch' | 'built_in_meter';

export const usageEntriesWrittenTotal = new Counter({
  name: 'backbone_usage_entries_written_total',
  help: 'Usage entries stored (not counting duplicates answered from an earlier write), by source.',
  labelNames: ['source'] as const,
  registers: [registry],
});

export function countUsageEntriesWritten(source: UsageEntrySource, count: number): void {
  if (count > 0) usageEntriesWrittenTotal.inc({ source }, count);
}

export const usageEntriesFoldedTotal = new Counter({
  name: 'backbone_usage_entries_folded_total',
  help: 'Usage entries this process added to the hourly and daily rollups (the fold); behind backbone_usage_entries_written_total by the entries summaries still read one by one.',
  registers: [registry],
});

export const usageFoldsTotal = new Counter({
  name: 'backbone_usage_folds_total',
  help: 'Folds this process attempted, by result (folded; idle: nothing new; waiting: a transaction older than the boundary still runs; busy: another process was folding; failed).',
  labelNames: ['result'] as const,
  registers: [registry],
});

export function countUsageFold(result: 'folded' | 'idle' | 'waiting' | 'busy' | 'failed', entries = 0): void {
  usageFoldsTotal.inc({ result });
  if (entries > 0) usageEntriesFoldedTotal.inc(entries);
}

/** completed; retried: failed with attempts left; failed: failed for good (moved to the failed set). */
export type JobOutcome = 'completed' | 'retried' | 'failed';

export const jobsProcessedTotal = new Counter({
  name: 'backbone_jobs_processed_total',
  help: 'Jobs a worker of this process finished, by queue and outcome (retried: failed with attempts left; failed: moved to the failed set).',
  labelNames: ['queue', 'outcome'] as const,
  registers: [registry],
});

export function countJobProcessed(queue: string, outcome: JobOutcome): void {
  jobsProcessedTotal.inc({ queue, outcome });
}

/** delivered: a 2xx; failed_attempt: an attempt that will be retried; failed: the last attempt failed; refused: the URL resolved to a forbidden address. */
export type WebhookDeliveryOutcome = 'delivered' | 'failed_attempt' | 'failed' | 'refused';

export const webhookDeliveriesTotal = new Counter({
  name: 'backbone_webhook_deliveries_total',
  help: 'Webhook delivery attempts by outcome: delivered, failed_attempt (retried later), failed (no attempts left), refused (forbidden address).',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export function countWebhookDelivery(outcome: WebhookDeliveryOutcome): void {
  webhookDeliveriesTotal.inc({ outcome });
}

export const rateLimitedRequestsTotal = new Counter({
  name: 'backbone_rate_limited_requests_total',
  help: 'Requests answered 429 for being over their key budget, by key scope.',
  labelNames: ['scope'] as const,
  registers: [registry],
});

export function countRateLimitedRequest(scope: string): void {
  rateLimitedRequestsTotal.inc({ scope });
}

export const rateLimiterFailedOpenTotal = new Counter({
  name: 'backbone_rate_limiter_failed_open_total',
  help: 'Requests served without a rate-limit decision because Redis did not answer (availability first).',
  registers: [registry],
});

export function countRateLimiterFailedOpen(): void {
  rateLimiterFailedOpenTotal.inc();
}

export const collectorErrorsTotal = new Counter({
  name: 'backbone_metrics_collector_errors_total',
  help: 'Scrape-time collections that failed (Redis or PostgreSQL not answering); their gauges are left out of that scrape.',
  labelNames: ['collector'] as const,
  registers: [registry],
});
