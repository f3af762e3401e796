// PATCH /api/v2/operator/timeslots/:TimeslotID: change a timeslot's capacity, never below what is booked (owners).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { timeslotChangeAnswers, timeslotParamsSchema } from './timeslots.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const capacityChangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Capacity'],
  properties: { Capacity: { type: 'integer', minimum: 0, maximum: 100000 } },
} as const;
export type CapacityChange = FromSchema<typeof capacityChangeSchema>;

export const changeTimeslotCapacityOperation = {
  operationId: 'changeTimeslotCapacity',
  method: 'patch',
  path: '/api/v2/operator/timeslots/:TimeslotID',
  summary: "Change a timeslot's capacity",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: timeslotParamsSchema,
  body: capacityChangeSchema,
  responses: {
    ...timeslotChangeAnswers,
    409: { description: '`/capacity-below-booked`: more places are booked than the new capacity (`Booked` says how many).' },
    422: { description: 'Invalid capacity.' },
  },
} as const satisfies Operation;
