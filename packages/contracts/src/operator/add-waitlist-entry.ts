// POST /api/v2/operator/timeslots/:TimeslotID/waitlist: staff put a caller on a full timeslot's waitlist.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { timeslotParamsSchema } from './timeslots.schemas.js';
import { waitlistContactSchema, waitlistEntrySchema } from './waitlist.schemas.js';

export const addWaitlistEntryRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Participants', 'Customer'],
  properties: {
    Participants: { type: 'integer', minimum: 1, maximum: 10000, description: "At most the activity's per-booking maximum." },
    Customer: waitlistContactSchema,
  },
} as const;
export type AddWaitlistEntryRequest = FromSchema<typeof addWaitlistEntryRequestSchema>;

export const addWaitlistEntryOperation = {
  operationId: 'addWaitlistEntry',
  method: 'post',
  path: '/api/v2/operator/timeslots/:TimeslotID/waitlist',
  summary: "Add a caller to a timeslot's waitlist",
  description:
    'The entry joins at the end of the queue. The same e-mail address on the same timeslot is one entry: adding it again answers the live entry (200) unchanged.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: timeslotParamsSchema,
  body: addWaitlistEntryRequestSchema,
  responses: {
    200: { description: 'The address already waits (or holds an offer) on this timeslot: that entry.', schema: waitlistEntrySchema },
    201: { description: 'Added.', schema: waitlistEntrySchema },
    404: { description: 'No such timeslot in this account.' },
    409: {
      description: '`/places-available`: the timeslot has places for the party (book it instead); `/timeslot-unavailable`: closed or started.',
    },
    422: { description: "Invalid body, or a party larger than the activity's per-booking maximum." },
  },
} as const satisfies Operation;
