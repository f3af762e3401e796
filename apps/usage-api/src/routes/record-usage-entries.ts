// POST /api/v2/usage/meters/batch: entries validated one by one and stored together by the record-usage-entries use
// case; 201 when every entry was stored or replayed, 207 when any was rejected.
import { recordUsageEntriesOperation } from '@backbone/contracts';
import { idempotencyCallerOf, mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { recordUsageEntries } from '@backbone/use-cases';
import type { UsageAppDeps } from '../deps.js';

export function mountRecordUsageEntries(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(routes, { ...deps, bodyLimit: deps.batchBodyLimit }, recordUsageEntriesOperation, async ({ body, auth, idempotency }) => {
    const { value, replayed } = await recordUsageEntries(
      deps,
      { accountId: auth.accountId, caller: idempotencyCallerOf(auth), entries: body.Entries },
      idempotency,
    );
    return { status: value.data.Rejected > 0 ? 207 : 201, body: value, headers: replayHeaders(replayed) };
  });
}
