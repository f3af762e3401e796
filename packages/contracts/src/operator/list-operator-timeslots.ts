// GET /api/v2/operator/activities/:ActivityID/timeslots: an activity's timeslots over a date range (the week view).
import type { Operation } from '../operation.js';
import { calendarDateSchema, uuidSchema } from '../common.schemas.js';
import { operatorTimeslotSchema } from './timeslots.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const MAX_TIMESLOT_RANGE_DAYS = 62;

export const listOperatorTimeslotsOperation = {
  operationId: 'listOperatorTimeslots',
  method: 'get',
  path: '/api/v2/operator/activities/:ActivityID/timeslots',
  summary: "An activity's timeslots with capacity, booked and available",
  description: `Every timeslot, open, closed or past, with From..To local dates (both included, at most ${MAX_TIMESLOT_RANGE_DAYS} days), by start.`,
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: { type: 'object', required: ['ActivityID'], properties: { ActivityID: uuidSchema } },
  query: { type: 'object', additionalProperties: false, required: ['From', 'To'], properties: { From: calendarDateSchema, To: calendarDateSchema } },
  responses: {
    200: { description: 'The timeslots.', schema: { type: 'array', items: operatorTimeslotSchema } },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid dates, To before From or a range too long.' },
  },
} as const satisfies Operation;
