// The webhook delivery contract shared by the partner API (which replays deliveries) and the webhook worker (which
// makes them). One BullMQ job per delivery run: the worker retries it with backoff; a replay adds a fresh job.
import { JOBS, QUEUES, type JobName } from './events.catalog.js';

export const WEBHOOK_DELIVERIES_QUEUE = 'webhook-deliveries';
export const WEBHOOK_DELIVERY_JOB = 'deliver';
/** The job's data: the delivery row to attempt (its endpoint, payload and state live in PostgreSQL). */
export interface WebhookDeliveryJob {
  DeliveryID: string;
  AccountID: string;
}

export type WebhookEventType = { [N in JobName]: (typeof JOBS)[N]['queue'] extends typeof QUEUES.bookingEvents ? N : never }[JobName];
const isWebhookEvent = (name: JobName): name is WebhookEventType => JOBS[name].queue === QUEUES.bookingEvents;
/** The event types an endpoint may subscribe to: every job on the booking-events queue, in catalog order. */
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = (Object.keys(JOBS) as JobName[]).filter(isWebhookEvent);
/** At most this many endpoints a partner. */
export const MAX_WEBHOOK_ENDPOINTS_PER_PARTNER = 5;
