// The worker refuses to start unless every platform event of the catalog has exactly one handler.
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { PLATFORM_EVENT_NAMES, QUEUES } from '@backbone/contracts';
import { useTestDatabase, useTestRedis } from '@backbone/testkit';
import { buildHandlerMap, defineHandler, HandlerRegistrationError, platformEventHandlers, type AnyJobHandler } from '../src/handlers/index.js';
import { orderCompletedHandler } from '../src/handlers/order-completed.handler.js';
import { waitlistNotifiedHandler } from '../src/handlers/waitlist-notified.handler.js';
import { workflowEmailSentHandler } from '../src/handlers/workflow-email-sent.handler.js';
import { useWorkers } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const workers = useWorkers(db, redis);

function registrationError(handlers: readonly AnyJobHandler[]): string {
  try {
    buildHandlerMap(handlers);
  } catch (error) {
    expect(error).toBeInstanceOf(HandlerRegistrationError);
    return (error as Error).message;
  }
  throw new Error('buildHandlerMap accepted the handlers');
}

describe('handler map', () => {
  it('maps each platform event of the catalog to its one handler', () => {
    const map = buildHandlerMap(platformEventHandlers);
    expect(Object.keys(map).sort()).toEqual([...PLATFORM_EVENT_NAMES].sort());
    expect(map['order.completed']).toBe(orderCompletedHandler);
    expect(map['waitlist.notified']).toBe(waitlistNotifiedHandler);
    expect(map['workflow-email.sent']).toBe(workflowEmailSentHandler);
  });

  it('refuses a platform event without a handler', () => {
    expect(registrationError([orderCompletedHandler, waitlistNotifiedHandler])).toBe("The worker cannot start: no handler for 'workflow-email.sent'.");
  });

  it('refuses a platform event with two handlers', () => {
    const second = defineHandler('order.completed', async () => undefined);
    expect(registrationError([...platformEventHandlers, second])).toBe("The worker cannot start: 2 handlers for 'order.completed'.");
  });

  it('refuses a handler for a job that is not a platform event', () => {
    const stray = { job: 'booking.created', handle: async () => undefined } as unknown as AnyJobHandler;
    expect(registrationError([...platformEventHandlers, stray])).toContain("a handler for 'booking.created', which is not a platform event of the catalog");
  });

  it('the worker does not start (no consumer on the queue) with a missing or a doubled handler', async () => {
    expect(() => workers.start({ handlers: [orderCompletedHandler, workflowEmailSentHandler] })).toThrow(/no handler for 'waitlist.notified'/);
    expect(() => workers.start({ handlers: [...platformEventHandlers, workflowEmailSentHandler] })).toThrow(/2 handlers for 'workflow-email.sent'/);
    const queue = new Queue(QUEUES.platformEvents, { connection: redis.connection(), prefix: redis.prefix });
    try {
      expect(await queue.getWorkersCount()).toBe(0);
      // The same call with the real handler list does start a consumer, so the count above can tell.
      await workers.start().worker.waitUntilReady();
      expect(await queue.getWorkersCount()).toBe(1);
    } finally {
      await queue.close();
    }
  });
});
