// GET /api/v2/operator/timeslots/:TimeslotID/waitlist: a timeslot's waitlist, the queue first (owners and staff).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { timeslotParamsSchema } from './timeslots.schemas.js';
import { waitlistEntrySchema } from './waitlist.schemas.js';

export const timeslotWaitlistSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Entries'],
  properties: {
    Entries: {
      type: 'array',
      items: waitlistEntrySchema,
      description:
        'The waiting entries by position, then the offered ones, then the 200 latest that are no longer live (claimed, expired, removed), newest first.',
    },
  },
} as const;
export type TimeslotWaitlist = FromSchema<typeof timeslotWaitlistSchema>;

export const listTimeslotWaitlistOperation = {
  operationId: 'listTimeslotWaitlist',
  method: 'get',
  path: '/api/v2/operator/timeslots/:TimeslotID/waitlist',
  summary: "A timeslot's waitlist",
  description: 'Position, party, contact and offer state of each entry.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: timeslotParamsSchema,
  responses: {
    200: { description: 'The waitlist.', schema: timeslotWaitlistSchema },
    404: { description: 'No such timeslot in this account.' },
  },
} as const satisfies Operation;
