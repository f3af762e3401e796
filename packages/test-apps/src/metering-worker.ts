// The metering worker as the tests run it, in-process on the test file's schema and Redis prefix, with the events it
// consumes and the usage entries it writes. For the worker's own tests, the booking worker's gauge tests (a consumer
// whose jobs they count) and the admin CLI's failed-set test.
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll } from 'vitest';
import { QUEUES, type QueueName } from '@backbone/contracts';
import type { Pool } from '@backbone/db';
import { platformEventHandlers, startMeteringWorker, type AnyJobHandler, type MeteringWorker } from '@backbone/metering-worker';
import type { PublishableEvent } from '@backbone/publisher';
import type { TestDatabase, TestRedis } from '@backbone/testkit';

export const silentLogger = pino({ level: 'silent' });

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** One event of each kind, or `count` of a mix, for `accountId`. */
export function orderCompleted(accountId: string, basketId: string | number = `basket-${randomUUID()}`, occurredAt = unixNow()): PublishableEvent {
  return { name: 'order.completed', payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: occurredAt, BasketID: basketId } };
}

export function waitlistNotified(accountId: string, waitlistId: string | number, multiBookingId: string | number, occurredAt = unixNow()): PublishableEvent {
  return {
    name: 'waitlist.notified',
    payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: occurredAt, WaitlistID: waitlistId, MultiBookingID: multiBookingId },
  };
}

export function workflowEmailSent(accountId: string, occurredAt = unixNow()): PublishableEvent {
  return { name: 'workflow-email.sent', payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: occurredAt } };
}

export function mixedEvents(accountId: string, count: number): PublishableEvent[] {
  return Array.from({ length: count }, (_, i) =>
    i % 3 === 0 ? orderCompleted(accountId, `basket-${i}`) : i % 3 === 1 ? waitlistNotified(accountId, i, `mb-${i}`) : workflowEmailSent(accountId),
  );
}

export interface StoredEntry {
  meter: string;
  usage: string;
  extra_info: string | null;
  occurred_at: number;
  dedupe_key: string;
}

export async function entriesOf(pool: Pool, accountId: string): Promise<StoredEntry[]> {
  const { rows } = await pool.query<StoredEntry>(
    `SELECT meter, usage::text AS usage, extra_info, extract(epoch FROM occurred_at)::int AS occurred_at, dedupe_key
       FROM usage_entries WHERE account_id = $1 ORDER BY id`,
    [accountId],
  );
  return rows;
}

export async function countEntries(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM usage_entries WHERE account_id = $1`, [accountId]);
  return rows[0]!.n;
}

/** Distinct EventIDs among the account's entries (dedupe keys are 'event:<EventID>'). */
export async function countDistinctEvents(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(DISTINCT dedupe_key)::int AS n FROM usage_entries WHERE account_id = $1`, [accountId]);
  return rows[0]!.n;
}

/** Queues on this file's prefix, closed after the file. */
export function useQueues(redis: TestRedis): { queue(name?: QueueName): Queue } {
  const opened = new Map<QueueName, Queue>();
  afterAll(async () => {
    for (const queue of opened.values()) await queue.close();
  });
  return {
    queue(name = QUEUES.platformEvents) {
      let queue = opened.get(name);
      if (!queue) {
        queue = new Queue(name, { connection: redis.connection(), prefix: redis.prefix });
        opened.set(name, queue);
      }
      return queue;
    },
  };
}

/** Starts in-process workers on this file's schema and prefix; all are closed after the file. */
export function useWorkers(db: TestDatabase, redis: TestRedis) {
  const running: MeteringWorker[] = [];
  afterAll(async () => {
    for (const worker of running) await worker.close();
  });
  return {
    start(options: { handlers?: readonly AnyJobHandler[]; concurrency?: number; connection?: Redis; prefix?: string } = {}): MeteringWorker {
      const worker = startMeteringWorker({
        connection: options.connection ?? redis.connection(),
        prefix: options.prefix ?? redis.prefix,
        pool: db.pool,
        handlers: options.handlers ?? platformEventHandlers,
        concurrency: options.concurrency ?? 50,
        logger: silentLogger,
      });
      running.push(worker);
      return worker;
    },
  };
}
