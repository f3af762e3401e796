// POST /api/v2/usage/meters: one entry through the record-usage-entry use case. As for bookings, a retry racing the
// first request gets 409, and a retry after the first committed gets its answer again.
import { recordUsageEntryOperation, type RecordUsageEntryResponse } from '@backbone/contracts';
import { mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { recordUsageEntry } from '@backbone/use-cases';
import type { UsageAppDeps } from '../deps.js';

export function mountRecordUsageEntry(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(routes, deps, recordUsageEntryOperation, async ({ body, auth, idempotency }) => {
    const { value, replayed } = await recordUsageEntry(deps, {
      accountId: auth.accountId,
      entry: body,
      idempotencyKey: idempotency && { caller: idempotency.caller, key: idempotency.key },
    });
    const response: RecordUsageEntryResponse = { data: value };
    return { status: 201, body: response, headers: replayHeaders(replayed) };
  });
}
