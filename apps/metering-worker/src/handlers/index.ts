// Every handler the worker registers; buildHandlerMap checks there is exactly one per platform event.
import type { AnyJobHandler } from './job-handler.js';
import { orderCompletedHandler } from './order-completed.handler.js';
import { waitlistNotifiedHandler } from './waitlist-notified.handler.js';
import { workflowEmailSentHandler } from './workflow-email-sent.handler.js';

export const platformEventHandlers: readonly AnyJobHandler[] = [orderCompletedHandler, waitlistNotifiedHandler, workflowEmailSentHandler];
export * from './job-handler.js';
