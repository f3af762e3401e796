// The failed set, for operators: jobs that used up their attempts (or failed for good) are kept by BullMQ; these list
// them and move them back to wait with a fresh set of attempts once the cause is fixed.
import type { Job } from 'bullmq';
import type { QueueName } from '@backbone/contracts';
import { QUEUE_NAMES, type EventQueues } from './queues.js';

export interface FailedJob {
  queue: QueueName;
  id: string;
  name: string;
  attemptsMade: number;
  attempts: number;
  failedReason: string;
  failedAt: string | null;
  payload: unknown;
}

export interface ReplayedJob {
  queue: QueueName;
  id: string;
  name: string;
}

const PAGE = 500;

function describe(queue: QueueName, job: Job): FailedJob {
  return {
    queue,
    id: String(job.id),
    name: job.name,
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    failedReason: job.failedReason,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    payload: job.data,
  };
}

async function failedJobsOf(queues: EventQueues, queue: QueueName, limit: number): Promise<Job[]> {
  const jobs: Job[] = [];
  for (let start = 0; jobs.length < limit; start += PAGE) {
    const page = await queues[queue].getFailed(start, start + Math.min(PAGE, limit - jobs.length) - 1);
    jobs.push(...page);
    if (page.length === 0) break;
  }
  return jobs;
}

/** The failed jobs of one queue or of all, newest first, at most `limit` per queue. */
export async function listFailedJobs(queues: EventQueues, options: { queue?: QueueName; limit?: number } = {}): Promise<FailedJob[]> {
  const names = options.queue ? [options.queue] : QUEUE_NAMES;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  const lists = await Promise.all(names.map(async (queue) => (await failedJobsOf(queues, queue, limit)).map((job) => describe(queue, job))));
  return lists.flat();
}

/**
 * Moves failed jobs back to wait with their attempts reset: one job by id, or every job failed at the moment of the
 * call (jobs failing again while this runs stay failed, so a replay of everything always ends).
 */
export async function replayFailedJobs(
  queues: EventQueues,
  target: { jobId: string; queue?: QueueName } | { all: true; queue?: QueueName },
): Promise<ReplayedJob[]> {
  const names = target.queue ? [target.queue] : QUEUE_NAMES;
  const chosen: Array<{ queue: QueueName; job: Job }> = [];
  for (const queue of names) {
    if ('jobId' in target) {
      const job = await queues[queue].getJob(target.jobId);
      if (job && (await job.isFailed())) chosen.push({ queue, job });
    } else {
      for (const job of await failedJobsOf(queues, queue, Number.POSITIVE_INFINITY)) chosen.push({ queue, job });
    }
  }
  if ('jobId' in target && chosen.length === 0) throw new Error(`No failed job with id ${target.jobId}${target.queue ? ` on ${target.queue}` : ''}.`);
  const replayed: ReplayedJob[] = [];
  for (const { queue, job } of chosen) {
    await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    replayed.push({ queue, id: String(job.id), name: job.name });
  }
  return replayed;
}
