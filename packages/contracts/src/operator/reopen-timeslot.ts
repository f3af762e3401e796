// POST /api/v2/operator/timeslots/:TimeslotID/reopen: reopen a closed timeslot (owners, as closing it).
import type { Operation } from '../operation.js';
import { timeslotChangeAnswers, timeslotParamsSchema } from './timeslots.schemas.js';
import { operatorTags } from './shared.schemas.js';

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
  responses: timeslotChangeAnswers,
} as const satisfies Operation;
