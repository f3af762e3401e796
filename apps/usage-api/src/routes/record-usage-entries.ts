// POST /api/v2/usage/meters/batch: every entry is validated on its own (the single POST's schema and limits), the
// valid ones are inserted by one statement in one transaction, and the answer lists each entry's fate in order.
import {
  compileValidator,
  batchUsageEntrySchema,
  recordUsageEntries,
  type BatchEntryResult,
  type BatchUsageEntry,
  type RecordUsageEntriesResponse,
} from '@backbone/contracts';
import { insertUsageEntries, withTransaction, type Db, type NewUsageEntry } from '@backbone/db';
import type { FieldError } from '@backbone/domain';
import { mountOperation, type HandlerResult, type OperationRoutes } from '@backbone/http';
import type { UsageAppDeps } from '../deps.js';
import { classifyOutcome, nowInSeconds, toNewUsageEntry, usageEntryLimitErrors } from '../usage-entry.js';

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

export function mountRecordUsageEntries(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(routes, { ...deps, bodyLimit: deps.batchBodyLimit }, recordUsageEntries, async ({ body, auth, idempotencyKey, recordResponse }) => {
    const now = nowInSeconds();
    const results: BatchEntryResult[] = new Array<BatchEntryResult>(body.Entries.length);
    const accepted: Array<{ index: number; entry: NewUsageEntry }> = [];
    body.Entries.forEach((raw, index) => {
      const errors = entryErrors(raw, index);
      if (errors.length > 0) results[index] = rejected(index, errors);
      else {
        const input = raw as BatchUsageEntry;
        accepted.push({ index, entry: toNewUsageEntry(input, { accountId: auth.accountId, idempotencyKey: input.IdempotencyKey ?? null, now }) });
      }
    });

    const store = async (db: Db): Promise<HandlerResult> => {
      const outcomes = await insertUsageEntries(
        db,
        accepted.map((a) => a.entry),
      );
      accepted.forEach(({ index, entry }, i) => {
        const outcome = classifyOutcome(outcomes[i]!, entry.requestHash);
        results[index] =
          outcome.status === 'conflict'
            ? rejected(index, [{ field: `Entries[${index}].IdempotencyKey`, message: 'IdempotencyKey was already used with a different entry.' }])
            : { Index: index, Status: outcome.status, Entry: outcome.entry };
      });
      const count = (status: BatchEntryResult['Status']) => results.filter((r) => r.Status === status).length;
      const response: RecordUsageEntriesResponse = {
        data: { Created: count('created'), Replayed: count('replayed'), Rejected: count('rejected'), Results: results },
      };
      const result: HandlerResult = { status: response.data.Rejected > 0 ? 207 : 201, body: response };
      // With an Idempotency-Key header the answer is stored with the entries, so a replay sees exactly this answer.
      await recordResponse(db, result);
      return result;
    };
    // One statement is one transaction already. Only a stored answer needs an explicit one, and it would hold the
    // rollup rows' locks (shared by every batch of the account) while this process builds the answer.
    return idempotencyKey ? withTransaction(deps.pool, store) : store(deps.pool);
  });
}
