// Publish a platform event for a service that is not written in Node: the account is the caller's, and the event
// goes through the same typed publisher (and its catalog validation) as events published from Node.
import type { PlatformEventAccepted, PlatformEventRequest } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import { EventQueueUnavailableError, type EventPublisher } from '@backbone/publisher';
import { UnavailableError } from './errors.js';

export async function publishPlatformEvent(
  deps: { publisher: EventPublisher },
  request: { accountId: string; event: PlatformEventRequest },
): Promise<PlatformEventAccepted['data']> {
  const { event, accountId } = request;
  if (event.AccountID !== undefined && event.AccountID.toLowerCase() !== accountId) {
    throw new ValidationError([{ field: 'AccountID', message: 'AccountID must be the account of the API key (or be left out).' }]);
  }
  const payload = {
    ...(event.Data ?? {}),
    EventID: event.EventID.toLowerCase(),
    AccountID: accountId,
    OccurredAt: event.OccurredAt ?? Math.floor(Date.now() / 1000),
  };
  try {
    await deps.publisher.publish(event.Type, payload);
  } catch (error) {
    if (error instanceof EventQueueUnavailableError)
      throw new UnavailableError('The event queue is unreachable; nothing was queued. Retry later.', { cause: error });
    throw error;
  }
  return { EventID: payload.EventID, Type: event.Type, AccountID: payload.AccountID, OccurredAt: payload.OccurredAt };
}
