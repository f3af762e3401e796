// The delivery of one webhook: one attempt per run of its job, then the attempt recorded and the same job rescheduled
// for the next one. The retry schedule lives here and in PostgreSQL, not in the job's options, so a replayed delivery
// (a fresh job added by the partner API) retries alike.
import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { WEBHOOK_DELIVERY_JOB, type WebhookDeliveryJob } from '@backbone/contracts';
import {
  createGroupCommit,
  failWebhookDelivery,
  findWebhookDeliveryTargets,
  recordWebhookAttempts,
  type GroupCommitOptions,
  type Pool,
  type WebhookAttemptToRecord,
  type WebhookDeliveryTarget,
  type WebhookDeliveryToRead,
} from '@backbone/db';
import { countWebhookDelivery } from '@backbone/metrics';
import type { EndpointSlots } from './endpoint-slots.js';
import type { ParkedDeliveries } from './parked-deliveries.js';
import { postpone, type JobProcessor } from './queue-workers.js';
import type { AttemptResult, WebhookSender } from './send-webhook.js';

export interface DeliveryOptions {
  pool: Pool;
  sender: WebhookSender;
  logger: Logger;
  slots: EndpointSlots;
  parked: ParkedDeliveries;
  /** Delay before each retry; a run makes one attempt more than there are delays. */
  retryDelaysMs: readonly number[];
  disableAfterMs: number;
  groupCommit: GroupCommitOptions;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `delay` varied by up to 20% either way, so deliveries that failed together do not all come back together. */
export function withJitter(delay: number): number {
  return Math.round(delay * (0.8 + Math.random() * 0.4));
}

/** The processor of the webhook deliveries queue. */
export function createDelivery(options: DeliveryOptions): JobProcessor<WebhookDeliveryJob> {
  const { pool, sender, logger, slots, parked } = options;
  // The delivery jobs running at once share one read of their targets and one write of their attempts: under load a
  // round trip (and a commit) per batch instead of one per job, and when idle nothing waits.
  const targets = createGroupCommit((reads: readonly WebhookDeliveryToRead[]) => findWebhookDeliveryTargets(pool, reads), options.groupCommit);
  const attempts = createGroupCommit(
    (made: readonly WebhookAttemptToRecord[]) => recordWebhookAttempts(pool, made, options.disableAfterMs),
    options.groupCommit,
  );

  /** One attempt to the target's endpoint within its in-flight cap; null when the cap left no slot. */
  const attempt = async (target: WebhookDeliveryTarget): Promise<AttemptResult | null> => {
    const release = slots.take(target.endpointId);
    if (!release) return null;
    try {
      return await sender.send({ url: target.url, secret: target.secret, messageId: target.eventId, body: JSON.stringify(target.payload) });
    } finally {
      release();
      parked.wake(target.endpointId);
    }
  };

  /** Records the attempt, counts and logs its outcome; when the next attempt is due (ms since the epoch), or null. */
  const record = async ({ AccountID, DeliveryID }: WebhookDeliveryJob, target: WebhookDeliveryTarget, result: AttemptResult): Promise<number | null> => {
    const delay = result.succeeded ? undefined : options.retryDelaysMs[target.runAttempts];
    const nextAttemptAt = delay === undefined ? null : new Date(Date.now() + withJitter(delay));
    const outcome = await attempts.submit({
      accountId: AccountID,
      deliveryId: DeliveryID,
      endpointId: target.endpointId,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error,
      responseExcerpt: result.responseExcerpt,
      succeeded: result.succeeded,
      nextAttemptAt,
      refusal: result.refused ?? null,
      url: target.url,
    });
    // Deleted with its endpoint during the attempt: nothing left to record or retry.
    if (!outcome) return null;
    countWebhookDelivery(result.succeeded ? 'delivered' : result.refused ? 'refused' : outcome.status === 'failed' ? 'failed' : 'failed_attempt');
    if (outcome.status === 'failed') {
      logger.info(
        {
          deliveryId: DeliveryID,
          endpointId: target.endpointId,
          attempts: target.runAttempts + 1,
          endpointDisabled: outcome.endpointDisabled,
          error: result.error,
        },
        'webhook delivery failed',
      );
    }
    return outcome.status === 'pending' && nextAttemptAt ? nextAttemptAt.getTime() : null;
  };

  return async function deliver(job: Job<WebhookDeliveryJob>, token?: string): Promise<void> {
    const { DeliveryID, AccountID } = (job.data ?? {}) as Partial<WebhookDeliveryJob>;
    if (typeof DeliveryID !== 'string' || !UUID.test(DeliveryID) || typeof AccountID !== 'string' || !UUID.test(AccountID)) {
      throw new UnrecoverableError(`Invalid ${WEBHOOK_DELIVERY_JOB} job data: DeliveryID and AccountID must be UUIDs.`);
    }
    await parked.resume(job, token);
    // The run started when its job was added: the fan-out's job, or a replay's fresh one.
    const target = await targets.submit({ accountId: AccountID, deliveryId: DeliveryID, runStartedAt: new Date(job.timestamp) });
    // Gone with its endpoint, or finished by another run: nothing to do.
    if (!target || target.status !== 'pending') return;
    if (target.endpointDisabled) {
      await failWebhookDelivery(pool, AccountID, DeliveryID, 'endpoint disabled: not attempted');
      return;
    }
    // A job that ran again after a crash keeps to the schedule its attempt had set.
    if (target.nextAttemptAt && target.nextAttemptAt.getTime() > Date.now() + 1000) await postpone(job, token, target.nextAttemptAt.getTime());
    const result = await attempt(target);
    if (!result) return parked.park(job, token, target.endpointId);
    const nextAttemptAt = await record({ DeliveryID, AccountID }, target, result);
    if (nextAttemptAt !== null) await postpone(job, token, nextAttemptAt);
  };
}
