// The BullMQ worker of the platform-events queue: each job is checked against the catalog again (it may have been
// published by an older or foreign producer), its account must exist, and its handler writes one usage entry
// through the group-commit writer, so many concurrent jobs share one INSERT.
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { QUEUES, type JobPayloads, type PlatformEventName } from '@backbone/contracts';
import { createEventEntryWriter, type NewUsageEntry, type Pool, type UsageWriter } from '@backbone/db';
import { countJobProcessed, countUsageEntriesWritten } from '@backbone/metrics';
import { validateEvent } from '@backbone/publisher';
import { buildHandlerMap, type AnyJobHandler, type HandlerContext, type HandlerMap, type JobHandler } from './handlers/index.js';
import { createKnownAccounts } from './known-accounts.js';

export interface MeteringWorkerOptions {
  /** A consumer connection (maxRetriesPerRequest: null); BullMQ duplicates it for its blocking reads. */
  connection: Redis;
  prefix: string;
  pool: Pool;
  handlers: readonly AnyJobHandler[];
  concurrency: number;
  logger: Logger;
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  maxStalledCount?: number;
  writer?: UsageWriter<boolean>;
}

export interface MeteringWorker {
  worker: Worker;
  /** Stops taking jobs and waits for the active ones to finish. */
  close(): Promise<void>;
}

/** Builds the handler map first: a missing or doubled handler throws before any job is taken. */
export function startMeteringWorker(options: MeteringWorkerOptions): MeteringWorker {
  const handlers = buildHandlerMap(options.handlers);
  const writer = options.writer ?? createEventEntryWriter(options.pool);
  const accounts = createKnownAccounts(options.pool);
  const ctx: HandlerContext = {
    async recordUsage(entry) {
      const stored = await recordIsolated(writer, entry);
      // Not when the entry was there already (a redelivered event): backbone_usage_entries_written_total counts rows.
      if (stored) countUsageEntriesWritten('built_in_meter', 1);
      return stored;
    },
  };

  const processJob = async (job: Job): Promise<void> => {
    const handler = isPlatformEvent(job.name, handlers) ? handlers[job.name] : undefined;
    if (!handler) throw new UnrecoverableError(`No handler for job '${job.name}' on ${QUEUES.platformEvents}.`);
    const errors = validateEvent(job.name, job.data);
    if (errors.length > 0) throw new UnrecoverableError(`Invalid ${job.name} payload: ${errors.map((e) => e.message).join(' ')}`);
    const event = job.data as JobPayloads[PlatformEventName];
    // Retrying cannot make an unknown account appear; the job waits in the failed set for an operator.
    if (!(await accounts.exists(event.AccountID))) throw new UnrecoverableError(`Unknown account ${event.AccountID}.`);
    await (handler as JobHandler<PlatformEventName>).handle(event, ctx);
  };

  const worker = new Worker(QUEUES.platformEvents, processJob, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    ...(options.lockDurationMs ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.stalledIntervalMs ? { stalledInterval: options.stalledIntervalMs } : {}),
    ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
  });
  worker.on('completed', () => countJobProcessed(QUEUES.platformEvents, 'completed'));
  worker.on('failed', (job, err) => {
    // BullMQ stamps finishedOn only on a job that has no attempt left (moved to the failed set).
    countJobProcessed(QUEUES.platformEvents, job?.finishedOn ? 'failed' : 'retried');
    options.logger.warn({ jobId: job?.id, job: job?.name, attemptsMade: job?.attemptsMade, err }, 'job failed');
  });
  worker.on('error', (err) => options.logger.error({ err }, 'worker error'));

  return {
    worker,
    async close() {
      await worker.close();
      await writer.drain();
    },
  };
}

function isPlatformEvent(name: string, handlers: HandlerMap): name is PlatformEventName {
  return Object.hasOwn(handlers, name);
}

/**
 * Writes through the shared batch; when that batch fails, tries once more alone, so one entry PostgreSQL refuses
 * fails only its own job and not the jobs that happened to share its batch.
 */
async function recordIsolated(writer: UsageWriter<boolean>, entry: NewUsageEntry): Promise<boolean> {
  try {
    return await writer.write(entry);
  } catch {
    const [stored] = await writer.writeAll([entry]);
    return stored!;
  }
}
