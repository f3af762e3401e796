// The fan-out of booking events: each event on the booking events queue becomes one delivery row per matching
// endpoint of its partner, then one `deliver` job per pending delivery.
import { UnrecoverableError, type Job, type Queue } from 'bullmq';
import { QUEUES, WEBHOOK_DELIVERY_JOB, WEBHOOK_EVENT_TYPES, type JobPayloads, type WebhookDeliveryJob, type WebhookEventType } from '@backbone/contracts';
import { createGroupCommit, fanOutWebhookEvents, type GroupCommitOptions, type Pool, type WebhookEventToFanOut } from '@backbone/db';
import { validateEvent, webhookDeliveryJobOptions } from '@backbone/publisher';
import type { JobProcessor } from './queue-workers.js';

/** The processor of the booking events queue. */
export function createFanOut(options: { pool: Pool; deliveries: Queue<WebhookDeliveryJob>; groupCommit: GroupCommitOptions }): JobProcessor<unknown> {
  const { pool, deliveries } = options;
  // The events being fanned out at once share one statement and one addBulk.
  const fanOuts = createGroupCommit(async (events: readonly WebhookEventToFanOut[]) => {
    const pending = await fanOutWebhookEvents(pool, events);
    // Every pending delivery, not only the new ones: a run that died after its commit left some without a job. A
    // job whose id (the delivery's) already exists is not added again.
    const jobs = events.flatMap((event, i) =>
      pending[i]!.map((id) => ({ name: WEBHOOK_DELIVERY_JOB, data: { DeliveryID: id, AccountID: event.accountId }, opts: webhookDeliveryJobOptions(id) })),
    );
    if (jobs.length > 0) await deliveries.addBulk(jobs);
    return events.map(() => undefined);
  }, options.groupCommit);

  return async function fanOutEvent(job: Job): Promise<void> {
    if (!isWebhookEventType(job.name)) throw new UnrecoverableError(`No webhook event '${job.name}' on ${QUEUES.bookingEvents}.`);
    const errors = validateEvent(job.name, job.data);
    if (errors.length > 0) throw new UnrecoverableError(`Invalid ${job.name} payload: ${errors.map((e) => e.message).join(' ')}`);
    const event = job.data as JobPayloads[WebhookEventType];
    // Bookings of the operator's own channels have no partner, so no endpoint to hear of them.
    if (!event.PartnerID) return;
    const payload = { type: job.name, timestamp: new Date(event.OccurredAt * 1000).toISOString(), data: event };
    await fanOuts.submit({ accountId: event.AccountID, partnerId: event.PartnerID, eventId: event.EventID, type: job.name, payload });
  };
}

function isWebhookEventType(name: string): name is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(name);
}
