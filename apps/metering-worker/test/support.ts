// Shared set-up of the metering worker tests: an in-process worker on this file's schema and Redis prefix, the
// worker as a child process (for SIGKILL and SIGTERM), event factories and a polling helper.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll } from 'vitest';
import { QUEUES, type QueueName } from '@backbone/contracts';
import type { Pool } from '@backbone/db';
import type { PublishableEvent } from '@backbone/publisher';
import type { TestDatabase, TestRedis } from '@backbone/testkit';
import { platformEventHandlers, type AnyJobHandler } from '../src/handlers/index.js';
import { startMeteringWorker, type MeteringWorker } from '../src/metering-worker.js';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
export const silentLogger = pino({ level: 'silent' });

/** Polls `check` until it returns true; fails with `what` when it does not within `timeoutMs`. */
export async function waitFor(what: string | (() => string), check: () => Promise<boolean>, timeoutMs = 30_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}

/** One event of each kind, or `count` of a mix, for `accountId`. */
export function orderCompleted(accountId: string, basketId: string | number = `basket-${randomUUID()}`, occurredAt = unixNow()): PublishableEvent {
  return { name: 'order.completed', payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: occurredAt, BasketID: basketId } };
}

export function waitlistNotified(accountId: string, waitlistId: string | number, multiBookingId: string | number, occurredAt = unixNow()): PublishableEvent {
  return { name: 'waitlist.notified', payload: { EventID: randomUUID(), AccountID: accountId, OccurredAt: occurredAt, WaitlistID: waitlistId, MultiBookingID: multiBookingId } };
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

export interface ChildWorker {
  child: ChildProcess;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

// Worker processes a failed test left running are killed after the file.
const spawned = new Set<ChildProcess>();
afterAll(() => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Runs `tsx apps/metering-worker/src/main.ts` as its own process, the way it runs in production. */
export function spawnWorker(db: TestDatabase, env: Record<string, string>): ChildWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/metering-worker/src/main.ts'], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: db.urlWithSchema,
      DATABASE_SCHEMA: db.schema,
      DATABASE_POOL_SIZE: '5',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  spawned.add(child);
  return { child, output: () => output, exited };
}

/** Waits until the child worker logs that it is running. */
export async function untilRunning(worker: ChildWorker): Promise<void> {
  await waitFor(
    () => `the worker process to start; its output:\n${worker.output().slice(-2000)}`,
    async () => {
      if (worker.child.exitCode !== null) throw new Error(`worker exited with ${worker.child.exitCode}: ${worker.output().slice(-2000)}`);
      return worker.output().includes('metering worker running');
    },
    60_000,
  );
}

export interface OwnRedis {
  url: string;
  /** Stops the server (SIGKILL: a crash) and starts it again on the same port and data directory. */
  restart(): Promise<void>;
  /** The caller stops it (afterAll). */
  stop(): Promise<void>;
}

/**
 * A redis-server of the test's own, so restarting it harms nobody. AOF with fsync on every write: whatever Redis
 * acknowledged survives the crash, as in production with `appendonly yes`.
 */
export async function startOwnRedis(port: number, dir: string): Promise<OwnRedis> {
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess;
  const launch = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir], {
      stdio: 'ignore',
    });
    await waitFor(`redis-server on port ${port}`, async () => {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    });
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  await launch();
  return {
    url,
    async restart() {
      await kill();
      await launch();
    },
    stop: kill,
  };
}
