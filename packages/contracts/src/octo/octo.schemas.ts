// OCTO (Open Connectivity for Tours, Activities and Attractions, octo.travel): the shapes of the core specification
// and its octo/pricing capability that /octo serves. Member names are OCTO's (camelCase), not the partner API's.
// Responses keep additionalProperties open: OCTO clients ignore members they do not know, and a capability adds some.
// The shapes are in a file per subject (octo-product, octo-availability, octo-booking, octo-contact, octo-pricing);
// this one holds what every operation shares: its tag, its error answers, and a request's dates and free text.
import { textSchema } from '../common.schemas.js';
import { str } from './octo-scalars.js';

export const octoTags = ['OCTO'] as const;

/** OCTO's error body: `error`, `errorMessage` and, for the INVALID_* errors, the field it is about. */
export const octoErrorSchema = {
  type: 'object',
  required: ['error', 'errorMessage'],
  properties: {
    error: {
      type: 'string',
      enum: [
        'INVALID_PRODUCT_ID',
        'INVALID_OPTION_ID',
        'INVALID_UNIT_ID',
        'INVALID_AVAILABILITY_ID',
        'INVALID_BOOKING_UUID',
        'BAD_REQUEST',
        'UNPROCESSABLE_ENTITY',
        'UNAUTHORIZED',
        'FORBIDDEN',
        'TOO_MANY_REQUESTS',
        'INTERNAL_SERVER_ERROR',
      ],
    },
    errorMessage: str,
    productId: str,
    optionId: str,
    unitId: str,
    availabilityId: str,
    uuid: str,
  },
} as const;

/** The error answers every OCTO operation may give (the statuses are in docs/octo.md). */
export const octoErrorResponses = {
  400: { description: 'OCTO error: INVALID_* (with the field), BAD_REQUEST or UNPROCESSABLE_ENTITY.', schema: octoErrorSchema },
  401: { description: 'UNAUTHORIZED: no key, or an unknown or revoked one.', schema: octoErrorSchema },
  403: { description: 'FORBIDDEN: a key without the ota scope.', schema: octoErrorSchema },
  429: { description: 'TOO_MANY_REQUESTS: over the key’s rate limit (Retry-After).', schema: octoErrorSchema },
  503: { description: 'INTERNAL_SERVER_ERROR: the database is out of reach; send the same request again (Retry-After).', schema: octoErrorSchema },
} as const;

export const octoLocalDate = { type: 'string', maxLength: 10 } as const;

/**
 * A request's free text (contact, notes, references, a reason), stored or looked up as sent. Ids and dates need no
 * such guard: the use cases check each against its form before any query (INVALID_* or BAD_REQUEST).
 */
export const octoTextOrNull = <const Max extends number>(maxLength: Max) => ({ ...textSchema(maxLength), type: ['string', 'null'] }) as const;
