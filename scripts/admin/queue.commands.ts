// Admin commands for the failed set: list the jobs that used up their attempts, and replay them once the cause is
// fixed (`npm run admin -- failed-jobs`, `npm run admin -- replay-failed --all`).
import type { QueueName } from '@backbone/contracts';
import { readDatabaseIdentity } from '@backbone/db';
import {
  claimQueuePrefix,
  closeQueues,
  createRedisConnection,
  openQueues,
  QUEUE_NAMES,
  type EventQueues,
  type FailedJob,
  type ReplayedJob,
} from '@backbone/publisher';
import { listFailedSet, replayFailedSet } from '@backbone/use-cases';
import type { AdminCommand, AdminContext } from './command.js';

const common = {
  prefix: { type: 'string' },
  queue: { type: 'string' },
} as const;

function queueOption(options: Record<string, unknown>): QueueName | undefined {
  const queue = options.queue;
  if (queue === undefined) return undefined;
  if (typeof queue !== 'string' || !(QUEUE_NAMES as readonly string[]).includes(queue)) {
    throw new Error(`--queue must be one of: ${QUEUE_NAMES.join(', ')}`);
  }
  return queue as QueueName;
}

async function withQueues<T>(options: Record<string, unknown>, ctx: AdminContext, work: (queues: EventQueues) => Promise<T>): Promise<T> {
  const prefix = typeof options.prefix === 'string' && options.prefix !== '' ? options.prefix : ctx.queuePrefix;
  const redis = createRedisConnection(ctx.redisUrl, 'producer');
  const queues = openQueues(redis, prefix);
  try {
    // A replayed job runs against the database that holds the prefix: it must be the one this CLI works on.
    await claimQueuePrefix(redis, prefix, await readDatabaseIdentity(ctx.pool));
    return await work(queues);
  } finally {
    await closeQueues(queues);
    redis.disconnect();
  }
}

// The CLI prints the API's PascalCase members; the payload is printed as it was queued.
function describeJob(job: ReplayedJob) {
  return { Queue: job.queue, ID: job.id, Name: job.name };
}

function describeFailedJob(job: FailedJob) {
  return {
    ...describeJob(job),
    AttemptsMade: job.attemptsMade,
    Attempts: job.attempts,
    FailedReason: job.failedReason,
    FailedAt: job.failedAt,
    Payload: job.payload,
  };
}

/** One job as `failed-jobs` prints it. */
export type ListedFailedJob = ReturnType<typeof describeFailedJob>;

export const queueCommands: Record<string, AdminCommand> = {
  'failed-jobs': {
    summary: 'List the failed jobs (attempts used up, or failed for good) with their reason and payload.',
    usage: '[--queue platform-events|booking-events] [--limit N per queue] [--prefix <QUEUE_PREFIX>]',
    options: { ...common, limit: { type: 'string' } },
    async run(options, ctx) {
      const queue = queueOption(options);
      let limit: number | undefined;
      if (options.limit !== undefined) {
        limit = Number(options.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new Error('--limit must be a positive integer');
      }
      const jobs = await withQueues(options, ctx, (queues) => listFailedSet({ queues }, { ...(queue ? { queue } : {}), ...(limit ? { limit } : {}) }));
      return { Count: jobs.length, Jobs: jobs.map(describeFailedJob) };
    },
  },
  'replay-failed': {
    summary: 'Move failed jobs back to wait with a fresh set of attempts: one (--job <id>) or all (--all).',
    usage: '(--job <id> | --all) [--queue platform-events|booking-events] [--prefix <QUEUE_PREFIX>]',
    options: { ...common, job: { type: 'string' }, all: { type: 'boolean' } },
    async run(options, ctx) {
      const queue = queueOption(options);
      const jobId = typeof options.job === 'string' && options.job !== '' ? options.job : undefined;
      if ((jobId === undefined) === (options.all !== true)) throw new Error('give exactly one of --job <id> or --all');
      const scope = queue ? { queue } : {};
      const replayed = await withQueues(options, ctx, (queues) => replayFailedSet({ queues }, jobId ? { jobId, ...scope } : { all: true, ...scope }));
      return { Count: replayed.length, Replayed: replayed.map(describeJob) };
    },
  },
};
