// POST /api/v2/shop/:Slug/holds/:Token/confirm: Book. The hold becomes a confirmed booking of channel online with the
// customer's details and waiver answers; the price is paid at the venue (the confirm goes through a payment port).
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { answerSchema, customerDetailsSchema } from '../partner/create-booking.js';
import { notFoundToken, shopBookingSchema, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const confirmShopHoldRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Customer'],
  properties: {
    Customer: {
      ...customerDetailsSchema,
      required: ['FirstName', 'LastName', 'Email', 'Phone'],
      description: 'First name, last name, e-mail and phone, all required.',
    },
    Answers: {
      type: 'array',
      maxItems: 1000,
      items: answerSchema,
      description: 'Waiver answers: every required question answered; a file question by the FileID of an upload to this hold.',
    },
    AcceptTerms: {
      type: 'boolean',
      description: 'True when the page shows terms: the customer accepted them (422 when the page has terms and this is not true).',
    },
    Website: {
      type: 'string',
      maxLength: 0,
      description: 'Honeypot: a field the page hides from people. It must be left out or empty; a form that fills it is refused (422) and books nothing.',
      'x-message': 'must be empty.',
    },
  },
} as const;
export type ConfirmShopHoldRequest = FromSchema<typeof confirmShopHoldRequestSchema>;

export const confirmShopHoldOperation = {
  operationId: 'confirmShopHold',
  method: 'post',
  path: '/api/v2/shop/:Slug/holds/:Token/confirm',
  summary: 'Book: confirm a hold with the customer and the answers',
  description:
    "Public (no API key). Confirms the hold before it expires: an ordinary booking with channel online and no partner, at the price the hold recorded (the activity's price at booking time), paid at the venue. " +
    'Confirming again answers the same booking. The token then opens the booking at the manage link.',
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  body: confirmShopHoldRequestSchema,
  responses: {
    200: { description: 'Booked (Status confirmed).', schema: shopBookingSchema },
    400: { description: 'Slug or Token malformed.' },
    404: notFoundToken,
    409: { description: '`/hold-expired`: the hold expired, its places may be gone; `/invalid-transition`: it was released or cancelled.' },
    422: { description: 'Invalid body: customer details missing or invalid, invalid or missing answers, terms not accepted, or the honeypot filled.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
