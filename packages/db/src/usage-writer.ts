// Group commit for usage entries. Callers hand over one entry each and wait; entries that arrive while a batch is
// being written go into the next one, so under load many requests share one INSERT and one WAL flush, and when
// idle an entry is written at once (no timer, no added latency). A promise resolves only after its batch
// committed, so a 201 still means the entry is durable.
import { insertUsageEntries, type InsertOutcome, type NewUsageEntry } from './usage.repository.js';
import type { Pool } from './pool.js';

export interface UsageWriterOptions {
  /** Largest batch written by one statement. */
  maxBatchSize?: number;
  /** Batches written at the same time (each takes one pooled connection). */
  maxConcurrentBatches?: number;
}

export interface UsageWriter {
  write(entry: NewUsageEntry): Promise<InsertOutcome>;
  /** Writes several entries in one transaction (all or none), outside the shared batches. */
  writeAll(entries: readonly NewUsageEntry[]): Promise<InsertOutcome[]>;
  /** Waits for everything queued to be written. */
  drain(): Promise<void>;
}

interface Pending {
  entry: NewUsageEntry;
  resolve(outcome: InsertOutcome): void;
  reject(error: unknown): void;
}

export function createUsageWriter(pool: Pool, options: UsageWriterOptions = {}): UsageWriter {
  const maxBatchSize = options.maxBatchSize ?? 500;
  const maxConcurrent = options.maxConcurrentBatches ?? 2;
  let queue: Pending[] = [];
  let running = 0;
  let idle: Array<() => void> = [];

  const pump = (): void => {
    while (running < maxConcurrent && queue.length > 0) {
      const batch = queue.slice(0, maxBatchSize);
      queue = queue.slice(batch.length);
      running += 1;
      insertUsageEntries(
        pool,
        batch.map((p) => p.entry),
      )
        .then(
          (outcomes) => batch.forEach((p, i) => p.resolve(outcomes[i]!)),
          (error: unknown) => batch.forEach((p) => p.reject(error)),
        )
        .finally(() => {
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
    write(entry) {
      return new Promise<InsertOutcome>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        pump();
      });
    },
    writeAll(entries) {
      return insertUsageEntries(pool, entries);
    },
    drain() {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
