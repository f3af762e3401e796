// Group commit for usage entries (group-commit.ts): under load many requests share one INSERT and one WAL flush. A
// promise resolves only after its batch committed, so a 201 still means the entry is durable.
import { insertUsageEntries, insertEventUsageEntries, type InsertOutcome, type NewUsageEntry } from './usage.repository.js';
import type { Pool } from './pool.js';
import { createGroupCommit } from './group-commit.js';

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

/** The metering worker's writer: each entry answered only with whether it was stored (insertEventUsageEntries). */
export function createEventEntryWriter(pool: Pool, options: UsageWriterOptions = {}): UsageWriter<boolean> {
  return createGroupCommitWriter((entries) => insertEventUsageEntries(pool, entries), options);
}

function createGroupCommitWriter<R>(insert: (entries: readonly NewUsageEntry[]) => Promise<R[]>, options: UsageWriterOptions): UsageWriter<R> {
  const group = createGroupCommit(insert, options);
  return {
    write: (entry) => group.submit(entry),
    writeAll: (entries) => insert(entries),
    drain: () => group.drain(),
  };
}
