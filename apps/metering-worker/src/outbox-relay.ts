// The outbox relay: moves committed outbox rows (booking.created, written by the partner API in the booking's
// transaction) to their BullMQ queue. A row is stamped sent in the same transaction that claimed it, and only after
// the queue accepted the job, so a crash in between sends it again: at least once, always with the same job id
// (the EventID), so a consumer can drop the duplicate. FOR UPDATE SKIP LOCKED lets several relays run side by side.
import type { Logger } from 'pino';
import { JOBS, type JobName } from '@backbone/contracts';
import { claimUnsentOutboxEvents, markOutboxEventsSent, withTransaction, type OutboxEvent, type Pool } from '@backbone/db';
import { jobOptionsFor, withDeadline, type EventQueues } from '@backbone/publisher';

/** The jobs that leave through the outbox rather than being published directly. */
export const OUTBOX_JOB_NAMES = ['booking.created'] as const satisfies readonly JobName[];
type OutboxJobName = (typeof OUTBOX_JOB_NAMES)[number];

export interface OutboxRelayOptions {
  pool: Pool;
  queues: EventQueues;
  batchSize: number;
  intervalMs: number;
  logger: Logger;
}

export interface OutboxRelay {
  /** Finishes the batch in flight, then stops. */
  stop(): Promise<void>;
}

// The claimed rows stay locked while Redis is asked; an unreachable Redis must not hold them for long.
const QUEUE_DEADLINE_MS = 10_000;

/** Moves up to `batchSize` unsent rows to their queue; returns how many it moved. */
export async function relayOutboxBatch(pool: Pool, queues: EventQueues, batchSize: number): Promise<number> {
  return withTransaction(pool, async (client) => {
    const events = await claimUnsentOutboxEvents(client, OUTBOX_JOB_NAMES, batchSize);
    if (events.length === 0) return 0;
    for (const name of OUTBOX_JOB_NAMES) {
      const jobs = events.filter((event) => event.type === name).map((event) => toJob(name, event));
      if (jobs.length > 0) await withDeadline(queues[JOBS[name].queue].addBulk(jobs), QUEUE_DEADLINE_MS);
    }
    await markOutboxEventsSent(
      client,
      events.map((event) => event.id),
    );
    return events.length;
  });
}

function toJob(name: OutboxJobName, event: OutboxEvent) {
  // The row's own columns are the truth for the envelope, whatever the stored payload says.
  const data = { ...event.payload, EventID: event.eventId, AccountID: event.accountId, OccurredAt: event.payload.OccurredAt ?? event.createdAt };
  return { name, data, opts: jobOptionsFor(name, event.eventId) };
}

/** Relays in a loop: batch after batch while there is a backlog, then a pause of `intervalMs`. */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  let stopping = false;
  let wake: (() => void) | null = null;

  const pause = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.intervalMs);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const loop = async () => {
    while (!stopping) {
      let moved = 0;
      try {
        moved = await relayOutboxBatch(options.pool, options.queues, options.batchSize);
        if (moved > 0) options.logger.debug({ moved }, 'outbox events relayed');
      } catch (err) {
        // The rows stay unsent and are tried again after the pause.
        options.logger.warn({ err }, 'outbox relay batch failed');
      }
      if (moved < options.batchSize && !stopping) await pause();
    }
  };
  const running = loop();

  return {
    async stop() {
      stopping = true;
      wake?.();
      await running;
    },
  };
}
