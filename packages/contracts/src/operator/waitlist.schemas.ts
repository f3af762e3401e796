// The waitlist of a full timeslot as the console sees it: each entry's position, party, contact and offer state. The
// shop's join and the console's add take the same party and contact.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema, clockTimeSchema } from '../common.schemas.js';
import { customerDetailsSchema } from '../partner/create-booking.js';
import { timeslotIdSchema } from './timeslots.schemas.js';

export const WAITLIST_STATES = ['waiting', 'offered', 'claimed', 'expired', 'removed'] as const;
export type WaitlistState = (typeof WAITLIST_STATES)[number];

export const waitlistIdSchema = { type: 'integer', minimum: 1, maximum: 9007199254740991, description: "The waitlist entry's ID." } as const;

export const waitlistEntryParamsSchema = { type: 'object', required: ['WaitlistID'], properties: { WaitlistID: waitlistIdSchema } } as const;

/** Who waits: first and last name and e-mail required (the offer is e-mailed), the phone when known. */
export const waitlistContactSchema = {
  ...customerDetailsSchema,
  required: ['FirstName', 'LastName', 'Email'],
  description: 'Who waits: the offer is e-mailed to Email. Phone is optional.',
} as const;

export const waitlistEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'WaitlistID',
    'TimeslotID',
    'Date',
    'Time',
    'Position',
    'Participants',
    'Customer',
    'Channel',
    'State',
    'BookingReference',
    'OfferExpiresAt',
    'CreatedAt',
  ],
  properties: {
    WaitlistID: waitlistIdSchema,
    TimeslotID: timeslotIdSchema,
    Date: calendarDateSchema,
    Time: clockTimeSchema,
    Position: {
      type: ['integer', 'null'],
      minimum: 1,
      description: 'Place in the queue among the waiting entries (1 is offered first when its party fits); null once offered, claimed, expired or removed.',
    },
    Participants: { type: 'integer', minimum: 1 },
    Customer: {
      type: 'object',
      additionalProperties: false,
      required: ['FirstName', 'LastName', 'Email', 'Phone'],
      properties: {
        FirstName: { type: 'string' },
        LastName: { type: 'string' },
        Email: { type: 'string' },
        Phone: { type: ['string', 'null'] },
      },
    },
    Channel: { type: 'string', enum: ['online', 'pos'], description: 'online: joined on the booking page; pos: added by staff for a caller.' },
    State: {
      type: 'string',
      enum: WAITLIST_STATES,
      description:
        "waiting; offered (places held until OfferExpiresAt, the offer e-mailed); claimed (the offer's hold was booked); expired (the offer lapsed, or the timeslot started); removed.",
    },
    BookingReference: { type: ['string', 'null'], description: "The offer's hold, and the booking it became; null before an offer." },
    OfferExpiresAt: { type: ['string', 'null'], format: 'date-time', description: 'When an open offer lapses; null unless State is offered.' },
    CreatedAt: { type: 'string', format: 'date-time', description: 'When the entry joined: the queue is in this order.' },
  },
} as const;
export type WaitlistEntry = FromSchema<typeof waitlistEntrySchema>;

/** What every operation on one entry answers besides its own. */
export const waitlistEntryAnswers = {
  200: { description: 'The entry as it is now.', schema: waitlistEntrySchema },
  404: { description: 'No such waitlist entry in this account.' },
} as const;
