// GET /api/v2/operator/failed-events (owners): through the use case that keeps other accounts' jobs out.
import { listFailedEventsOperation, type FailedEvent } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listFailedEvents } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountListFailedEvents(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listFailedEventsOperation, async ({ auth }) => {
    const jobs = await listFailedEvents(deps, auth.accountId);
    const events: FailedEvent[] = jobs.map((j) => ({
      JobID: j.id,
      Queue: j.queue,
      Name: j.name,
      AttemptsMade: j.attemptsMade,
      Attempts: j.attempts,
      FailedReason: j.failedReason,
      FailedAt: j.failedAt,
      Payload: j.payload,
    }));
    return { status: 200, body: events, headers: { 'Cache-Control': 'no-store' } };
  });
}
