// Group commit: callers hand over one item each and wait; items that arrive while a batch is being written go into
// the next one, so under load many callers share one statement (one round trip, one WAL flush), and when idle an item
// is written at once (no timer, no added latency).
import { isDatabaseUnavailable } from './database-unavailable.js';

export interface GroupCommitOptions {
  /** Largest batch written by one call of `write`. */
  maxBatchSize?: number;
  /** Batches written at the same time (each takes one pooled connection). */
  maxConcurrentBatches?: number;
  /**
   * A batch of several items that fails is written again item by item, so an item the statement refuses fails alone
   * instead of failing every item that happened to share its batch. Not when the database could not be reached
   * (isDatabaseUnavailable): a connection lost during the statement leaves unknown whether it committed, and writing
   * its items again could then write them twice (a reservation under a new booking reference); they fail with it.
   */
  retryFailedBatchItemByItem?: boolean;
}

export interface GroupCommit<I, R> {
  /** Resolves with the item's answer once its batch was written. */
  submit(item: I): Promise<R>;
  /** Waits for everything queued to be written. */
  drain(): Promise<void>;
}

interface Pending<I, R> {
  item: I;
  resolve(answer: R): void;
  reject(error: unknown): void;
}

/** `write` answers a batch with one answer per item, in the items' order. */
export function createGroupCommit<I, R>(write: (items: readonly I[]) => Promise<R[]>, options: GroupCommitOptions = {}): GroupCommit<I, R> {
  const maxBatchSize = options.maxBatchSize ?? 500;
  const maxConcurrent = options.maxConcurrentBatches ?? 2;
  let queue: Array<Pending<I, R>> = [];
  let running = 0;
  let idle: Array<() => void> = [];

  const settle = async (batch: ReadonlyArray<Pending<I, R>>): Promise<void> => {
    try {
      const answers = await write(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(answers[i]!));
    } catch (error) {
      if (!options.retryFailedBatchItemByItem || batch.length === 1 || isDatabaseUnavailable(error)) {
        batch.forEach((p) => p.reject(error));
        return;
      }
      // One after another: the batch's own connection budget, not one connection per item.
      for (const p of batch) await settle([p]);
    }
  };

  const pump = (): void => {
    while (running < maxConcurrent && queue.length > 0) {
      const batch = queue.slice(0, maxBatchSize);
      queue = queue.slice(batch.length);
      running += 1;
      void settle(batch).finally(() => {
        running -= 1;
        pump();
        if (running === 0 && queue.length === 0) {
          const waiting = idle;
          idle = [];
          waiting.forEach((done) => done());
        }
      });
    }
  };

  return {
    submit(item) {
      return new Promise<R>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pump();
      });
    },
    drain() {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
