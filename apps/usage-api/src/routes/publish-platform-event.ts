// POST /api/v2/platform/events: the HTTP door to the platform-events queue for services not written in Node.
// The account is the API key's; the event goes through the same typed publisher (and its catalog validation) as
// events published from Node, and its EventID is the job id, so a repeated request queues nothing new.
import { publishPlatformEventOperation, type PlatformEventAccepted, type PlatformEventName } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import { HttpProblem, mountOperation, type OperationRoutes } from '@backbone/http';
import { EventQueueUnavailableError, eventJobId } from '@backbone/publisher';
import type { UsageAppDeps } from '../app.js';

export function mountPublishPlatformEvent(routes: OperationRoutes, deps: Pick<UsageAppDeps, 'pool' | 'keyVerifier' | 'bodyLimit' | 'publisher'>): void {
  mountOperation<typeof publishPlatformEventOperation>(routes, deps, publishPlatformEventOperation, async ({ body, auth }) => {
    if (body.AccountID !== undefined && body.AccountID.toLowerCase() !== auth.accountId) {
      throw new ValidationError([{ field: 'AccountID', message: 'AccountID must be the account of the API key (or be left out).' }]);
    }
    const type: PlatformEventName = body.Type;
    const payload = {
      ...(body.Data ?? {}),
      EventID: eventJobId(body.EventID),
      AccountID: auth.accountId,
      OccurredAt: body.OccurredAt ?? Math.floor(Date.now() / 1000),
    };
    try {
      await deps.publisher.publish(type, payload);
    } catch (error) {
      if (error instanceof EventQueueUnavailableError) throw new HttpProblem('unavailable', 'The event queue is unreachable; nothing was queued. Retry later.');
      throw error;
    }
    const accepted: PlatformEventAccepted = { data: { EventID: payload.EventID, Type: type, AccountID: payload.AccountID, OccurredAt: payload.OccurredAt } };
    return { status: 202, body: accepted };
  });
}
