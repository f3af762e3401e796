// Failed platform events of the caller's account: list them and replay one (the others' are invisible: 404). Owners
// only: replaying runs the account's jobs again, which is the operating of the service, not the day's bookings.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const failedEventSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['JobID', 'Queue', 'Name', 'AttemptsMade', 'Attempts', 'FailedReason', 'FailedAt', 'Payload'],
  properties: {
    JobID: { type: 'string', description: '`<AccountID>.<EventID>`.' },
    Queue: { type: 'string' },
    Name: { type: 'string' },
    AttemptsMade: { type: 'integer' },
    Attempts: { type: 'integer' },
    FailedReason: { type: 'string' },
    FailedAt: { type: ['string', 'null'], format: 'date-time' },
    Payload: { description: 'The event as published.' },
  },
} as const;
export type FailedEvent = FromSchema<typeof failedEventSchema>;

export const listFailedEventsOperation = {
  operationId: 'listFailedEvents',
  method: 'get',
  path: '/api/v2/operator/failed-events',
  summary: 'Failed platform events of the account',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  responses: { 200: { description: 'Newest first, at most 500.', schema: { type: 'array', items: failedEventSchema } } },
} as const satisfies Operation;

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
