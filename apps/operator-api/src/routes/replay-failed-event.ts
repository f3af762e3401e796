// POST /api/v2/operator/failed-events/:JobID/replay (owners): through the use case that keeps other accounts' jobs out.
import { replayFailedEventOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { replayFailedEvent } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountReplayFailedEvent(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, replayFailedEventOperation, async ({ params, auth }) => {
    await replayFailedEvent(deps, { accountId: auth.accountId, jobId: params.JobID });
    return { status: 204, body: undefined };
  });
}
