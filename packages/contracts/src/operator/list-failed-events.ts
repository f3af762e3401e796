// GET /api/v2/operator/failed-events: the failed platform events of the caller's account (the others' are invisible).
// Owners only, as replaying them is.
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
