// POST /api/v2/usage/meters: one entry through the group-commit writer. Idempotency rides on the entry itself
// (dedupe key 'key:<Idempotency-Key>' plus the request hash), so a retry costs no extra round trip. As for bookings,
// a retry racing the first request (same statement, or the first still uncommitted when it began) gets 409, and a
// retry after the first committed gets its answer again.
import { recordUsageEntry, type RecordUsageEntryResponse } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import { HttpProblem, mountOperation, type OperationRoutes } from '@backbone/http';
import type { UsageAppDeps } from '../deps.js';
import { classifyOutcome, nowInSeconds, toNewUsageEntry, usageEntryLimitErrors } from '../usage-entry.js';

export function mountRecordUsageEntry(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(
    routes,
    deps,
    recordUsageEntry,
    async ({ body, auth, idempotencyKey }) => {
      const errors = usageEntryLimitErrors(body);
      if (errors.length > 0) throw new ValidationError(errors);
      const entry = toNewUsageEntry(body, { accountId: auth.accountId, idempotencyKey, now: nowInSeconds() });
      const outcome = classifyOutcome(await deps.usageWriter.write(entry), entry.requestHash);
      if (outcome.status === 'conflict') throw new HttpProblem('idempotency-conflict', 'This Idempotency-Key was already used with a different request body.');
      if (outcome.concurrent) throw new HttpProblem('idempotency-in-progress', 'A request with this Idempotency-Key is still being processed; retry later.');
      const response: RecordUsageEntryResponse = { data: outcome.entry };
      const headers: Record<string, string> = outcome.status === 'replayed' ? { 'Idempotent-Replayed': 'true' } : {};
      return { status: 201, body: response, headers };
    },
    { storeIdempotentResponses: false },
  );
}
