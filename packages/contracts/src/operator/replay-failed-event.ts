// POST /api/v2/operator/failed-events/:JobID/replay: replay one failed platform event of the caller's account (another
// account's is a 404). Owners only: replaying runs the account's jobs again, which is the operating of the service, not
// the day's bookings.
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const replayFailedEventOperation = {
  operationId: 'replayFailedEvent',
  method: 'post',
  path: '/api/v2/operator/failed-events/:JobID/replay',
  summary: 'Replay a failed platform event',
  description: 'Moves the job back to its queue with a fresh set of attempts.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['JobID'], properties: { JobID: { type: 'string', minLength: 1, maxLength: 600 } } },
  responses: { 204: { description: 'Queued again.' }, 404: { description: 'No failed job with this id in this account.' } },
} as const satisfies Operation;
