// PATCH /api/v2/operator/booking-page: the owner turns the page on or off and sets its slug, the origins allowed to
// embed it, its note, terms and locale. Owners only.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { bookingPageFields, operatorBookingPageSchema } from './booking-page.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const bookingPageChangesSchema = { type: 'object', additionalProperties: false, minProperties: 1, properties: bookingPageFields } as const;
export type BookingPageChanges = FromSchema<typeof bookingPageChangesSchema>;

export const updateOperatorBookingPageOperation = {
  operationId: 'updateOperatorBookingPage',
  method: 'patch',
  path: '/api/v2/operator/booking-page',
  summary: "Change the account's booking page",
  description: 'Only the members sent change. A page can be enabled only with a slug. A slug is unique across accounts (409 when taken).',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: bookingPageChangesSchema,
  responses: {
    200: { description: 'The settings as they are now.', schema: operatorBookingPageSchema },
    409: { description: '`/slug-taken`: another account has this slug.' },
    422: { description: "Invalid changes, Enabled true without a slug, or a slug reserved for the page's own files (assets)." },
  },
} as const satisfies Operation;
