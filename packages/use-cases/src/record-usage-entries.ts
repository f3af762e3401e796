// Record a batch of usage entries: every entry is validated on its own (the single POST's schema and limits), the
// valid ones are inserted by one statement, and the answer lists each entry's fate in order. With an
// Idempotency-Key for the whole batch, the answer commits with the entries.
import { batchUsageEntrySchema, compileValidator, type BatchEntryResult, type BatchUsageEntry, type RecordUsageEntriesResponse } from '@backbone/contracts';
import { insertUsageEntries, type NewUsageEntry, type Pool } from '@backbone/db';
import type { FieldError } from '@backbone/domain';
import { countUsageEntriesWritten } from '@backbone/metrics';
import { runIdempotently, type IdempotencyRequest, type Replayable } from './idempotency.js';
import { entryOutcome, nowInSeconds, toNewUsageEntry, usageEntryLimitErrors } from './usage-entries.js';

const validateEntry = compileValidator(batchUsageEntrySchema, 'body');

/** The entry's own errors, with fields named by their place in the batch (Entries[3].Usage). */
function entryErrors(raw: unknown, index: number): FieldError[] {
  const at = `Entries[${index}]`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return [{ field: at, message: `${at} must be a JSON object.` }];
  const errors = validateEntry(raw);
  const all = errors.length > 0 ? errors : usageEntryLimitErrors(raw as BatchUsageEntry);
  return all.map((e) => ({ field: `${at}.${e.field}`, message: e.message }));
}

const rejected = (index: number, errors: FieldError[]): BatchEntryResult => ({
  Index: index,
  Status: 'rejected',
  Errors: errors.map((e) => ({ Field: e.field, Message: e.message })),
});

export async function recordUsageEntries(
  deps: { pool: Pool },
  request: { accountId: string; caller: string; entries: readonly unknown[] },
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<RecordUsageEntriesResponse>> {
  const now = nowInSeconds();
  const results: BatchEntryResult[] = new Array<BatchEntryResult>(request.entries.length);
  const accepted: Array<{ index: number; entry: NewUsageEntry }> = [];
  request.entries.forEach((raw, index) => {
    const errors = entryErrors(raw, index);
    if (errors.length > 0) results[index] = rejected(index, errors);
    else {
      const input = raw as BatchUsageEntry;
      accepted.push({
        index,
        entry: toNewUsageEntry(input, {
          accountId: request.accountId,
          idempotencyKey: input.IdempotencyKey === undefined ? null : { caller: request.caller, key: input.IdempotencyKey },
          now,
        }),
      });
    }
  });

  // One statement is one transaction already; only a stored answer makes runIdempotently open one, and then it holds
  // the rollup rows' locks (shared by every batch of the account) while the answer is built, so that stays small.
  const result = await runIdempotently(deps.pool, request.accountId, idempotency, async (db) => {
    const outcomes = await insertUsageEntries(
      db,
      accepted.map((a) => a.entry),
    );
    accepted.forEach(({ index, entry }, i) => {
      const outcome = entryOutcome(outcomes[i]!, entry.requestHash);
      // A holder still uncommitted when the insert began is listed as a replay: only the single POST answers it 409.
      results[index] =
        outcome.verdict === 'conflict'
          ? rejected(index, [{ field: `Entries[${index}].IdempotencyKey`, message: 'IdempotencyKey was already used with a different entry.' }])
          : { Index: index, Status: outcome.verdict === 'created' ? 'created' : 'replayed', Entry: outcome.entry };
    });
    const count = (status: BatchEntryResult['Status']) => results.filter((r) => r.Status === status).length;
    return { data: { Created: count('created'), Replayed: count('replayed'), Rejected: count('rejected'), Results: results } };
  });
  // After the commit, and not for a replayed answer: its entries were counted when they were written.
  if (!result.replayed) countUsageEntriesWritten('api_batch', result.value.data.Created);
  return result;
}
