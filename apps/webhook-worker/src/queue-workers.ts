// The BullMQ plumbing the webhook worker's two queues share: a queue's concurrency spread over several BullMQ
// workers, their outcomes counted and logged, and a job sent back to the delayed set without counting an attempt.
import { DelayedError, type Job, Worker, type WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import { countJobProcessed } from '@backbone/metrics';

/** Most jobs one BullMQ worker runs at once (startQueueWorkers). */
const WORKER_SHARE = 25;

export type JobProcessor<T> = (job: Job<T>, token?: string) => Promise<void>;

/**
 * `concurrency` jobs of `queue` at once, over as many BullMQ workers as it takes to give each at most WORKER_SHARE. A
 * BullMQ worker fetches one job per round trip and starts none of those waiting until it has fetched as many as it
 * has free slots: with all 200 delivery slots in one worker, a backlog waited for up to 200 round trips before its
 * first attempt, and under load the backlog grew faster than it was started. Workers of a share fetch side by side.
 */
export function startQueueWorkers<T>(
  queue: string,
  processor: JobProcessor<T>,
  concurrency: number,
  options: Omit<WorkerOptions, 'concurrency'>,
): Array<Worker<T>> {
  const count = Math.ceil(concurrency / WORKER_SHARE);
  return Array.from(
    { length: count },
    (_, i) => new Worker<T>(queue, processor, { ...options, concurrency: Math.floor(concurrency / count) + (i < concurrency % count ? 1 : 0) }),
  );
}

/** Counts each job's outcome under its queue and logs failures. */
export function reportJobOutcomes(worker: Worker, logger: Logger): void {
  worker.on('completed', () => countJobProcessed(worker.name, 'completed'));
  worker.on('failed', (job, err) => {
    // BullMQ stamps finishedOn only on a job that has no attempt left (moved to the failed set).
    countJobProcessed(worker.name, job?.finishedOn ? 'failed' : 'retried');
    logger.warn({ queue: worker.name, jobId: job?.id, job: job?.name, attemptsMade: job?.attemptsMade, err }, 'job failed');
  });
  worker.on('error', (err) => logger.error({ queue: worker.name, err }, 'worker error'));
}

/** Ends the job's run and brings it back at `until` (ms since the epoch), without counting an attempt. */
export async function postpone(job: Job, token: string | undefined, until: number): Promise<never> {
  await job.moveToDelayed(until, token);
  throw new DelayedError();
}
