// Binds a queue prefix to the one database whose processes use it. Processes of two databases sharing a Redis and a
// prefix take each other's jobs and write them into the wrong database (two local stacks on one machine: most events
// one accepted were metered by the other). Every process that produces or consumes jobs claims the prefix for its
// database before it does, and refuses to run when another database holds it. The key never expires: jobs queued
// under a prefix stay that database's, also while none of its processes runs.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** The database a process serves (packages/db readDatabaseIdentity): compared by id, described by description. */
export interface QueueOwner {
  id: string;
  description: string;
}

export function queueOwnerKey(prefix: string): string {
  return `${prefix}:backbone:database`;
}

/**
 * A prefix of the database's own (`npm start` uses it unless QUEUE_PREFIX is set): stacks of different databases never
 * meet in Redis, and a stack finds its queues again after a restart.
 */
export function databaseQueuePrefix(owner: QueueOwner): string {
  return `bull-${createHash('sha256').update(owner.id).digest('hex').slice(0, 12)}`;
}

export class QueuePrefixTakenError extends Error {
  override name = 'QueuePrefixTakenError';

  constructor(
    readonly prefix: string,
    readonly holder: string,
    readonly claimant: QueueOwner,
  ) {
    super(
      `The queues under prefix '${prefix}' in this Redis belong to another database (${holder}). This process serves ${claimant.description}. ` +
        `Set QUEUE_PREFIX to a prefix of this database's own. Only if this database took that one's place (restored, moved, upgraded) ` +
        `and the jobs queued there are now this one's, delete the Redis key '${queueOwnerKey(prefix)}'.`,
    );
  }
}

/** One attempt: throws QueuePrefixTakenError when another database holds the prefix, and Redis's error when it does not answer. */
export async function claimQueuePrefix(connection: Redis, prefix: string, owner: QueueOwner): Promise<void> {
  const key = queueOwnerKey(prefix);
  // SET NX, then read: the key never changes once set, so whoever set it first is the holder.
  await connection.set(key, JSON.stringify(owner), 'NX');
  const held = await connection.get(key);
  if (held === null) return claimQueuePrefix(connection, prefix, owner); // deleted by hand in between: claim again
  const holder = holderOf(held);
  if (holder.id !== owner.id) throw new QueuePrefixTakenError(prefix, holder.description, owner);
}

function holderOf(value: string): QueueOwner {
  try {
    const parsed = JSON.parse(value) as Partial<QueueOwner>;
    if (typeof parsed.id === 'string') return { id: parsed.id, description: typeof parsed.description === 'string' ? parsed.description : parsed.id };
  } catch {
    // not ours: compared and shown as it is
  }
  return { id: value, description: `'${value}'` };
}

export interface QueuePrefixGuardOptions {
  connection: Redis;
  prefix: string;
  owner: QueueOwner;
  /**
   * While Redis does not answer: true waits for it (a worker must not take a job before the check), false lets the
   * caller go on serving and keeps trying in the background (an API serves without Redis).
   */
  waitForRedis: boolean;
  /** Told the first time Redis does not answer. */
  onUnanswered(error: Error): void;
  /** Told when another database's hold is found after the returned promise resolved (only with waitForRedis false). */
  onTaken?(error: QueuePrefixTakenError): void;
  retryMs?: number;
}

/**
 * Claims the prefix, trying again while Redis does not answer. Resolves once it is claimed (or, with waitForRedis
 * false, once Redis first failed to answer); rejects with QueuePrefixTakenError when another database holds it.
 */
export function guardQueuePrefix(options: QueuePrefixGuardOptions): Promise<void> {
  const retryMs = options.retryMs ?? 1000;
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    const settle = (error?: QueuePrefixTakenError) => {
      if (settled) return error && options.onTaken?.(error);
      settled = true;
      return error ? reject(error) : resolve();
    };
    void (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          await claimQueuePrefix(options.connection, options.prefix, options.owner);
          return settle();
        } catch (error) {
          if (error instanceof QueuePrefixTakenError) return settle(error);
          if (attempt === 1) {
            options.onUnanswered(error as Error);
            if (!options.waitForRedis) settle();
          }
        }
        await new Promise((r) => setTimeout(r, retryMs));
      }
    })();
  });
}
