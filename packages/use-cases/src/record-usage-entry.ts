// Record one usage entry through the group-commit writer. Its idempotency rides on the entry itself (dedupe key
// 'idem:<caller>:<Idempotency-Key>' plus the request hash), so a retry costs no extra round trip.
import type { UsageEntry } from '@backbone/contracts';
import { throwOutcomeUnknownIfLost, type InsertOutcome, type UsageWriter } from '@backbone/db';
import { ValidationError } from '@backbone/domain';
import { countUsageEntriesWritten } from '@backbone/metrics';
import { IdempotencyError } from './errors.js';
import type { Replayable } from './idempotency.js';
import { entryOutcome, nowInSeconds, toNewUsageEntry, usageEntryLimitErrors, type EntryIdempotencyKey, type UsageEntryInput } from './usage-entries.js';

export interface UsageWriterDeps {
  usageWriter: UsageWriter<InsertOutcome>;
}

export async function recordUsageEntry(
  deps: UsageWriterDeps,
  request: { accountId: string; entry: UsageEntryInput; idempotencyKey: EntryIdempotencyKey | null },
): Promise<Replayable<UsageEntry>> {
  const errors = usageEntryLimitErrors(request.entry);
  if (errors.length > 0) throw new ValidationError(errors);
  const row = toNewUsageEntry(request.entry, { accountId: request.accountId, idempotencyKey: request.idempotencyKey, now: nowInSeconds() });
  // The writer's statement commits by itself: lost on its way back, the entry may have been stored.
  const outcome = entryOutcome(await deps.usageWriter.write(row).catch(throwOutcomeUnknownIfLost), row.requestHash);
  if (outcome.verdict === 'conflict' || outcome.verdict === 'in-progress') throw new IdempotencyError(outcome.verdict);
  if (outcome.verdict === 'created') countUsageEntriesWritten('api_single', 1);
  return { value: outcome.entry, replayed: outcome.verdict === 'replay' };
}
