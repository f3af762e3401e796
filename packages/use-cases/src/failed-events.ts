// An account's failed platform events: BullMQ keeps one failed set for every account, so the account is told by the
// job id (`<accountId>.<eventId>`). Listing and replaying both go through accountOwns: no account sees or replays
// another's jobs.
import { listFailedJobs, replayFailedJobs, type EventQueues, type FailedJob } from '@backbone/publisher';
import { notFound } from '@backbone/domain';

const LIST_LIMIT = 500;

function accountOwns(accountId: string, jobId: string): boolean {
  return jobId.startsWith(`${accountId.toLowerCase()}.`);
}

export async function listFailedEvents(uow: { queues: EventQueues }, accountId: string): Promise<FailedJob[]> {
  const jobs = await listFailedJobs(uow.queues);
  return jobs
    .filter((job) => accountOwns(accountId, job.id))
    .sort((a, b) => (b.failedAt ?? '').localeCompare(a.failedAt ?? ''))
    .slice(0, LIST_LIMIT);
}

export async function replayFailedEvent(uow: { queues: EventQueues }, request: { accountId: string; jobId: string }): Promise<void> {
  if (!accountOwns(request.accountId, request.jobId)) throw notFound('Failed event');
  try {
    await replayFailedJobs(uow.queues, { jobId: request.jobId });
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('No failed job')) throw notFound('Failed event');
    throw error;
  }
}
