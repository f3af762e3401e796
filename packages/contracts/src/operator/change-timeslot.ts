// The operator's changes to one timeslot: close it, reopen it, change its capacity (never below what is booked). They
// are the schedule, so the owner's; staff read it (list-timeslots) and sell from it.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { operatorTimeslotSchema, timeslotParamsSchema } from './timeslots.schemas.js';
import { operatorTags } from './shared.schemas.js';

const answers = {
  200: { description: 'The timeslot as it is now.', schema: operatorTimeslotSchema },
  404: { description: 'No such timeslot in this account.' },
} as const;

export const closeTimeslotOperation = {
  operationId: 'closeTimeslot',
  method: 'post',
  path: '/api/v2/operator/timeslots/:TimeslotID/close',
  summary: 'Close a timeslot',
  description: 'Partners no longer see it and no channel can book it; its bookings stay. Closing a closed timeslot changes nothing.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: timeslotParamsSchema,
  responses: answers,
} as const satisfies Operation;

export const reopenTimeslotOperation = {
  operationId: 'reopenTimeslot',
  method: 'post',
  path: '/api/v2/operator/timeslots/:TimeslotID/reopen',
  summary: 'Reopen a closed timeslot',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: timeslotParamsSchema,
  responses: answers,
} as const satisfies Operation;

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
    ...answers,
    409: { description: '`/capacity-below-booked`: more places are booked than the new capacity (`Booked` says how many).' },
    422: { description: 'Invalid capacity.' },
  },
} as const satisfies Operation;
