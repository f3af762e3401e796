// POST /api/v2/operator/activities: create an activity (owners).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { activityFields } from './activities.schemas.js';
import { operatorActivitySchema } from './list-operator-activities.js';
import { operatorTags } from './shared.schemas.js';

export const newActivitySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Name', 'DurationMinutes', 'TimeZone', 'Price', 'MaxParticipants'],
  properties: { ...activityFields, TimeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone; fixed once created.' } },
} as const;
export type NewOperatorActivity = FromSchema<typeof newActivitySchema>;

export const createOperatorActivityOperation = {
  operationId: 'createOperatorActivity',
  method: 'post',
  path: '/api/v2/operator/activities',
  summary: 'Create an activity',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: newActivitySchema,
  responses: { 201: { description: 'Created.', schema: operatorActivitySchema }, 422: { description: 'Invalid activity.' } },
} as const satisfies Operation;
