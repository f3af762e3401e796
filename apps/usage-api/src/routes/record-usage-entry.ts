// POST /api/v2/usage/meters: one entry through the group-commit writer. Idempotency rides on the entry itself
// (dedupe key 'key:<Idempotency-Key>' plus the request hash), so a retry costs no extra round trip, and a retry
// racing the first request waits on the unique index and then replays instead of answering 409.
import { recordUsageEntry, type RecordUsageEntryResponse } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import { HttpProblem, mountOperation, type OperationRoutes } from '@backbone/http';
import type { UsageAppDeps } from '../app.js';
import { classifyOutcome, nowInSeconds, toNewUsageEntry, usageEntryLimitErrors } from '../usage-entry.js';

export function mountRecordUsageEntry(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(routes,
    deps,
    recordUsageEntry,
    async ({ body, auth, idempotencyKey }) => {
      const errors = usageEntryLimitErrors(body);
      if (errors.length > 0) throw new ValidationError(errors);
      const entry = toNewUsageEntry(body, { accountId: auth.accountId, idempotencyKey, now: nowInSeconds() });
      const outcome = classifyOutcome(await deps.usageWriter.write(entry), entry.requestHash);
      if (outcome.status === 'conflict') throw new HttpProblem('idempotency-conflict', 'This Idempotency-Key was already used with a different request body.');
      const response: RecordUsageEntryResponse = { data: outcome.entry };
      const headers: Record<string, string> = outcome.status === 'replayed' ? { 'Idempotent-Replayed': 'true' } : {};
      return { status: 201, body: response, headers };
    },
    { storeIdempotentResponses: false },
  );
}
