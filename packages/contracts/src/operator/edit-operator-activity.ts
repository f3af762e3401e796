// PATCH /api/v2/operator/activities/:ActivityID: edit an activity or hide it from the shopfront (InShopfront false:
// partners stop seeing it, the point of sale still sells it). Owners only.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { activityFields, activityParams } from './activities.schemas.js';
import { operatorActivitySchema } from './list-operator-activities.js';
import { operatorTags } from './shared.schemas.js';

export const activityChangesSchema = { type: 'object', additionalProperties: false, minProperties: 1, properties: activityFields } as const;
export type ActivityChanges = FromSchema<typeof activityChangesSchema>;

export const editOperatorActivityOperation = {
  operationId: 'editOperatorActivity',
  method: 'patch',
  path: '/api/v2/operator/activities/:ActivityID',
  summary: 'Edit an activity, or hide it from the shopfront',
  description: "Only the members sent change. The time zone cannot change (the timeslots' local times are fixed in it).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: activityParams,
  body: activityChangesSchema,
  responses: {
    200: { description: 'The activity as it is now.', schema: operatorActivitySchema },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid changes.' },
  },
} as const satisfies Operation;
