// Failed jobs. An account's failed platform events (the console): BullMQ keeps one failed set for every account, so
// the account is told by the job id (`<accountId>.<eventId>`); listing and replaying both go through accountOwns, so
// no account sees or replays another's jobs. And the whole failed set of every queue (the admin CLI).
import type { QueueName } from '@backbone/contracts';
import { listFailedJobs, replayFailedJobs, type EventQueues, type FailedJob, type ReplayedJob } from '@backbone/publisher';
import { notFound } from '@backbone/domain';

const LIST_LIMIT = 500;

function accountOwns(accountId: string, jobId: string): boolean {
  return jobId.startsWith(`${accountId.toLowerCase()}.`);
}

export async function listFailedEvents(deps: { queues: EventQueues }, accountId: string): Promise<FailedJob[]> {
  const jobs = await listFailedJobs(deps.queues);
  return jobs
    .filter((job) => accountOwns(accountId, job.id))
    .sort((a, b) => (b.failedAt ?? '').localeCompare(a.failedAt ?? ''))
    .slice(0, LIST_LIMIT);
}

export async function replayFailedEvent(deps: { queues: EventQueues }, request: { accountId: string; jobId: string }): Promise<void> {
  if (!accountOwns(request.accountId, request.jobId)) throw notFound('Failed event');
  try {
    await replayFailedJobs(deps.queues, { jobId: request.jobId });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('No failed job')) throw notFound('Failed event');
    throw error;
  }
}

/** Every account's failed jobs, of one queue or of all, newest first, at most `limit` per queue. */
export function listFailedSet(deps: { queues: EventQueues }, filter: { queue?: QueueName; limit?: number } = {}): Promise<FailedJob[]> {
  return listFailedJobs(deps.queues, filter);
}

/** Moves failed jobs of any account back to wait with a fresh set of attempts: one by id, or all (of one queue or of all). */
export function replayFailedSet(
  deps: { queues: EventQueues },
  target: { jobId: string; queue?: QueueName } | { all: true; queue?: QueueName },
): Promise<ReplayedJob[]> {
  return replayFailedJobs(deps.queues, target);
}
