// Delivery jobs sent back to the queue for their endpoint's in-flight cap (endpoint-slots.ts): "parked", by endpoint
// in the order they were parked, with the endpoint of each. A slot freed by an attempt brings its endpoint's oldest
// parked job back at once (promoted out of the delayed set); the delay a job was parked with brings it back only when
// no slot of its endpoint freed in this process meanwhile. So a dead endpoint's jobs do not come back again and again
// while its slots hang (each return is Redis work in the same queue as every healthy endpoint's jobs), and a slow
// endpoint's jobs do not wait longer than its slots. A job coming back while its endpoint is still full goes back
// again without a database read. Only bookkeeping: a job another process takes leaves its entry here, so it is
// emptied when it grows large; a promotion that finds its job no longer delayed goes on to the next one.
import { Job, type Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { WebhookDeliveryJob } from '@backbone/contracts';
import type { EndpointSlots } from './endpoint-slots.js';
import { postpone } from './queue-workers.js';

const MAX_WAITING_FOR_SLOT = 10_000;

export interface ParkedDeliveries {
  /** Ends the job's run and parks it until a slot of its endpoint frees, or is sure to be free. */
  park(job: Job, token: string | undefined, endpointId: string): Promise<never>;
  /**
   * At the start of a job's run: a job that comes back while the endpoint it was parked for is still full is parked
   * again (and this does not return); any other is no longer parked.
   */
  resume(job: Job, token: string | undefined): Promise<void>;
  /** After an attempt to the endpoint: brings its oldest parked job back now. */
  wake(endpointId: string): void;
}

export function createParkedDeliveries(options: { deliveries: Queue<WebhookDeliveryJob>; slots: EndpointSlots; logger: Logger }): ParkedDeliveries {
  const { deliveries, slots, logger } = options;
  const parkedByEndpoint = new Map<string, Set<string>>();
  const parkedAt = new Map<string, string>();

  const unpark = (jobId: string) => {
    const endpointId = parkedAt.get(jobId);
    if (endpointId === undefined) return;
    parkedAt.delete(jobId);
    const parked = parkedByEndpoint.get(endpointId);
    parked?.delete(jobId);
    if (parked?.size === 0) parkedByEndpoint.delete(endpointId);
  };

  const park = (job: Job, token: string | undefined, endpointId: string) => {
    if (parkedAt.size >= MAX_WAITING_FOR_SLOT) {
      parkedAt.clear();
      parkedByEndpoint.clear();
    }
    parkedAt.set(job.id!, endpointId);
    parkedByEndpoint.set(endpointId, (parkedByEndpoint.get(endpointId) ?? new Set()).add(job.id!));
    // Spread over the 20% after the moment a slot is sure to be free, never before it: a job back earlier would only find
    // its endpoint full again.
    const backOff = slots.backOff(endpointId);
    return postpone(job, token, Date.now() + backOff + Math.round(Math.random() * backOff * 0.2));
  };

  const promoteOldest = async (endpointId: string): Promise<void> => {
    for (const jobId of parkedByEndpoint.get(endpointId) ?? []) {
      unpark(jobId);
      try {
        const parked = await Job.fromId(deliveries, jobId);
        if (parked) {
          await parked.promote();
          return;
        }
      } catch (err) {
        // Taken meanwhile (promote refuses a job that is not delayed), or Redis failed: its own delay brings it back.
        logger.debug({ err, jobId }, 'parked delivery not promoted');
      }
    }
  };

  return {
    park,
    async resume(job, token) {
      const parkedFor = parkedAt.get(job.id!);
      if (parkedFor !== undefined && slots.isFull(parkedFor)) await park(job, token, parkedFor);
      unpark(job.id!);
    },
    wake(endpointId) {
      if (parkedByEndpoint.has(endpointId)) void promoteOldest(endpointId);
    },
  };
}
