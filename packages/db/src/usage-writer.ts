// Group commit for usage entries. Callers hand over one entry each and wait; entries that arrive while a batch is
// being written go into the next one, so under load many requests share one INSERT and one WAL flush, and when
// idle an entry is written at once (no timer, no added latency). A promise resolves only after its batch
// committed, so a 201 still means the entry is durable.
import { insertUsageEntries, recordUsageEntries, type InsertOutcome, type NewUsageEntry } from './usage.repository.js';
import type { Pool } from './pool.js';

export interface UsageWriterOptions {
  /** Largest batch written by one statement. */
  maxBatchSize?: number;
  /** Batches written at the same time (each takes one pooled connection). */
  maxConcurrentBatches?: number;
}

/** `R` is what each entry is answered with: its InsertOutcome for the usage API, whether it was stored for the worker. */
export interface UsageWriter<R = InsertOutcome> {
  write(entry: NewUsageEntry): Promise<R>;
  /** Writes several entries in one transaction (all or none), outside the shared batches. */
  writeAll(entries: readonly NewUsageEntry[]): Promise<R[]>;
  /** Waits for everything queued to be written. */
  drain(): Promise<void>;
}

/** The usage API's writer: each entry answered with its stored row, or the row that already held its dedupe key. */
export function createUsageWriter(pool: Pool, options: UsageWriterOptions = {}): UsageWriter<InsertOutcome> {
  return createGroupCommitWriter((entries) => insertUsageEntries(pool, entries), options);
}

/** The metering worker's writer: each entry answered only with whether it was stored (recordUsageEntries). */
export function createEventEntryWriter(pool: Pool, options: UsageWriterOptions = {}): UsageWriter<boolean> {
  return createGroupCommitWriter((entries) => recordUsageEntries(pool, entries), options);
}

interface Pending<R> {
  entry: NewUsageEntry;
  resolve(answer: R): void;
  reject(error: unknown): void;
}

function createGroupCommitWriter<R>(insert: (entries: readonly NewUsageEntry[]) => Promise<R[]>, options: UsageWriterOptions): UsageWriter<R> {
  const maxBatchSize = options.maxBatchSize ?? 500;
  const maxConcurrent = options.maxConcurrentBatches ?? 2;
  let queue: Array<Pending<R>> = [];
  let running = 0;
  let idle: Array<() => void> = [];

  const pump = (): void => {
    while (running < maxConcurrent && queue.length > 0) {
      const batch = queue.slice(0, maxBatchSize);
      queue = queue.slice(batch.length);
      running += 1;
      insert(batch.map((p) => p.entry))
        .then(
          (answers) => batch.forEach((p, i) => p.resolve(answers[i]!)),
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
      return new Promise<R>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        pump();
      });
    },
    writeAll(entries) {
      return insert(entries);
    },
    drain() {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
