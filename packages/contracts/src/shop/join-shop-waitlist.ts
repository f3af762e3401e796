// POST /api/v2/shop/:Slug/waitlist: a customer joins the waitlist of a timeslot too full for the party. When places
// free up they are held for the earliest entries that fit and offered by e-mail, with a link to claim them.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';
import { WAITLIST_STATES, waitlistContactSchema } from '../operator/waitlist.schemas.js';
import { confirmShopHoldRequestSchema } from './confirm-shop-hold.js';
import { createShopHoldRequestSchema } from './create-shop-hold.js';
import { notFoundPage, shopParams, shopRateLimited, shopTags } from './shared.schemas.js';

export const joinShopWaitlistRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ActivityID', 'Date', 'Time', 'Participants', 'Customer'],
  properties: {
    ...createShopHoldRequestSchema.properties,
    Customer: waitlistContactSchema,
    Website: confirmShopHoldRequestSchema.properties.Website,
  },
} as const;
export type JoinShopWaitlistRequest = FromSchema<typeof joinShopWaitlistRequestSchema>;

export const shopWaitlistEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Date', 'Time', 'Participants', 'Position', 'State'],
  properties: {
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    Participants: { type: 'integer', minimum: 1 },
    Position: { type: ['integer', 'null'], minimum: 1, description: 'Place in the queue while waiting; null once an offer is out.' },
    State: { type: 'string', enum: WAITLIST_STATES },
  },
} as const;
export type ShopWaitlistEntry = FromSchema<typeof shopWaitlistEntrySchema>;

export const joinShopWaitlistOperation = {
  operationId: 'joinShopWaitlist',
  method: 'post',
  path: '/api/v2/shop/:Slug/waitlist',
  summary: 'Join the waitlist of a full timeslot',
  description:
    'Public (no API key). Only for a timeslot with fewer free places than the party. When places free up, the earliest entries that fit are offered them by e-mail: the places are held for the offer time (30 minutes by default) and the link opens the booking page to book them. ' +
    'The same e-mail address on the same timeslot is one entry: joining again answers it (200) unchanged.',
  tags: shopTags,
  auth: 'public',
  params: shopParams,
  body: joinShopWaitlistRequestSchema,
  responses: {
    200: { description: 'This address already waits on this timeslot.', schema: shopWaitlistEntrySchema },
    201: { description: 'Joined.', schema: shopWaitlistEntrySchema },
    400: { description: 'Slug malformed.' },
    404: notFoundPage,
    409: {
      description:
        '`/places-available`: the timeslot has places for the party (hold them instead); `/timeslot-unavailable`: no such timeslot, closed or started.',
    },
    422: { description: "Invalid body, a party outside the activity's limits, or the honeypot filled." },
    429: shopRateLimited,
  },
} as const satisfies Operation;
