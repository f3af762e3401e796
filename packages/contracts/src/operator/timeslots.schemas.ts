// The operator's view of a timeslot, shared by the availability list and the timeslot changes (close, reopen, capacity).
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';

export const TIMESLOT_STATUSES = ['open', 'closed'] as const;

export const timeslotIdSchema = { type: 'integer', minimum: 1, maximum: 9007199254740991, description: "The timeslot's ID." } as const;

export const operatorTimeslotSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['TimeslotID', 'Date', 'Time', 'StartsAt', 'EndsAt', 'Capacity', 'Booked', 'Available', 'Status', 'Started'],
  properties: {
    TimeslotID: timeslotIdSchema,
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    StartsAt: { type: 'string', format: 'date-time', description: "With the offset of the activity's zone." },
    EndsAt: { type: 'string', format: 'date-time' },
    Capacity: { type: 'integer', minimum: 0 },
    Booked: { type: 'integer', minimum: 0, description: 'Places taken by confirmed bookings and live holds.' },
    Available: { type: 'integer', minimum: 0 },
    Status: { type: 'string', enum: TIMESLOT_STATUSES, description: 'A closed timeslot is offered to no partner and takes no booking.' },
    Started: { type: 'boolean' },
  },
} as const;
export type OperatorTimeslot = FromSchema<typeof operatorTimeslotSchema>;

export const timeslotParamsSchema = { type: 'object', required: ['TimeslotID'], properties: { TimeslotID: timeslotIdSchema } } as const;

/** The answers every change to one timeslot shares. */
export const timeslotChangeAnswers = {
  200: { description: 'The timeslot as it is now.', schema: operatorTimeslotSchema },
  404: { description: 'No such timeslot in this account.' },
} as const;
