// The outbox relay: moves committed outbox rows (booking.created, written by the partner API in the booking's
// transaction, and order.completed of the operator's own checkout) to their BullMQ queue. A row is stamped sent in the same transaction that claimed it, and only after
// the queue accepted the job, so a crash in between sends it again: at least once, always with the same job id
// (account and EventID), so a consumer can drop the duplicate. FOR UPDATE SKIP LOCKED lets several relays run side by side.
// A queue whose consumers fall behind (or do not exist yet) is not filled without bound: Redis runs with noeviction,
// so a full Redis would refuse every queue, the metering one too. Past `maxBacklog` waiting jobs the relay holds the
// rows in PostgreSQL, where they are durable, and goes on once the queue has room again.
import type { Logger } from 'pino';
import { JOBS, QUEUES, type JobName, type QueueName } from '@backbone/contracts';
import { awaitDurable, claimUnsentOutboxEvents, hasUnsentOutboxEvents, markOutboxEventsSent, withTransaction, type OutboxEvent, type Pool } from '@backbone/db';
import { jobOptionsFor, withDeadline, type EventQueues } from '@backbone/publisher';
import { startPassLoop, type PassLoop } from '@backbone/shutdown';

/**
 * The jobs that leave through the outbox rather than being published directly: the booking events, and the
 * order.completed of a booking the operator's own checkout completed (the booking page, the point of sale), written
 * with the booking so that it is published exactly when the booking exists (the metering worker's dedupe key on its
 * EventID makes a second delivery count once).
 */
type BookingEventName = { [N in JobName]: (typeof JOBS)[N]['queue'] extends typeof QUEUES.bookingEvents ? N : never }[JobName];
type OutboxJobName = BookingEventName | 'order.completed';
export const OUTBOX_JOB_NAMES: readonly OutboxJobName[] = [
  ...(Object.keys(JOBS) as JobName[]).filter((name): name is BookingEventName => JOBS[name].queue === QUEUES.bookingEvents),
  'order.completed',
];
const OUTBOX_QUEUES: readonly QueueName[] = [...new Set(OUTBOX_JOB_NAMES.map((name) => JOBS[name].queue))];

export interface OutboxRelayOptions {
  pool: Pool;
  queues: EventQueues;
  batchSize: number;
  intervalMs: number;
  /** Jobs waiting on an outbox queue beyond which the relay leaves further rows in the outbox. */
  maxBacklog: number;
  logger: Logger;
}

export type OutboxRelay = PassLoop;

// The claimed rows stay locked while Redis is asked; an unreachable Redis must not hold them for long.
const QUEUE_DEADLINE_MS = 10_000;

/** Jobs that can still be added before the fullest outbox queue holds `maxBacklog` jobs not yet processed. */
async function outboxQueueRoom(queues: EventQueues, maxBacklog: number): Promise<{ room: number; backlog: number }> {
  const backlogs = await Promise.all(OUTBOX_QUEUES.map((queue) => withDeadline(queues[queue].count(), QUEUE_DEADLINE_MS)));
  const backlog = Math.max(0, ...backlogs);
  return { room: Math.max(0, maxBacklog - backlog), backlog };
}

/** Moves up to `batchSize` unsent rows to their queue; returns how many it moved. */
export async function relayOutboxBatch(pool: Pool, queues: EventQueues, batchSize: number): Promise<number> {
  return withTransaction(pool, async (client) => {
    const events = await claimUnsentOutboxEvents(client, OUTBOX_JOB_NAMES, batchSize);
    if (events.length === 0) return 0;
    // A booking commits without waiting for the disk (its use case waits before answering): its event must not leave
    // before the booking is durable, or a crash could leave a published event for a booking that never was.
    await awaitDurable(pool);
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
  return { name, data, opts: jobOptionsFor(name, data) };
}

/** Relays in a loop: batch after batch while there is a backlog, then a pause of `intervalMs`. */
export function startOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  let holding = false;
  // After a pass that found nothing, the next one first only looks (one indexed query, no transaction, no queue count):
  // an idle relay polls often, so its passes must cost next to nothing.
  let idle = false;
  return startPassLoop(options.intervalMs, async () => {
    try {
      if (idle && !(await hasUnsentOutboxEvents(options.pool, OUTBOX_JOB_NAMES))) return 'pause';
      const { room, backlog } = await outboxQueueRoom(options.queues, options.maxBacklog);
      if (room === 0) {
        // Said once per episode, not once per pause: the condition lasts until a consumer catches up.
        if (!holding)
          options.logger.warn(
            { backlog, maxBacklog: options.maxBacklog },
            'outbox queue backlog at its limit: holding events in the outbox until consumers catch up',
          );
        holding = true;
        return 'pause';
      }
      if (holding) options.logger.info({ backlog, maxBacklog: options.maxBacklog }, 'outbox queue has room again: relaying');
      holding = false;
      const moved = await relayOutboxBatch(options.pool, options.queues, Math.min(options.batchSize, room));
      idle = moved === 0;
      if (moved > 0) options.logger.debug({ moved }, 'outbox events relayed');
      return moved < options.batchSize ? 'pause' : 'again';
    } catch (err) {
      // The rows stay unsent and are tried again after the pause.
      options.logger.warn({ err }, 'outbox relay batch failed');
      return 'pause';
    }
  });
}
