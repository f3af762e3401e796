// POST /api/v2/platform/events: the HTTP door to the platform-events queue for services not written in Node, through
// the publish-platform-event use case; (account, EventID) is the job id, so a repeated request queues nothing new.
import { publishPlatformEventOperation, type PlatformEventAccepted } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { publishPlatformEvent } from '@backbone/use-cases';
import type { UsageAppDeps } from '../deps.js';

export function mountPublishPlatformEvent(routes: OperationRoutes, deps: Pick<UsageAppDeps, 'pool' | 'keyVerifier' | 'bodyLimit' | 'publisher'>): void {
  mountOperation<typeof publishPlatformEventOperation>(routes, deps, publishPlatformEventOperation, async ({ body, auth }) => {
    const accepted: PlatformEventAccepted = { data: await publishPlatformEvent(deps, { accountId: auth.accountId, event: body }) };
    return { status: 202, body: accepted };
  });
}
