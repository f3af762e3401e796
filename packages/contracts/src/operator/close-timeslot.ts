// POST /api/v2/operator/timeslots/:TimeslotID/close: close a timeslot. The schedule is the owner's; staff read it
// (list-operator-timeslots) and sell from it.
import type { Operation } from '../operation.js';
import { timeslotChangeAnswers, timeslotParamsSchema } from './timeslots.schemas.js';
import { operatorTags } from './shared.schemas.js';

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
  responses: timeslotChangeAnswers,
} as const satisfies Operation;
