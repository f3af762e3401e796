// The account's booking page settings as the console shows and edits them.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import { shopSlugSchema } from '../shop/shared.schemas.js';

/** An origin allowed to frame the page (frame-ancestors): scheme, host and optional port, no path. */
const embedOriginSchema = {
  type: 'string',
  maxLength: 200,
  pattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$',
  'x-message': 'must be an origin such as https://www.example.com (scheme, host, optional port; no path).',
} as const;

export const bookingPageFields = {
  Enabled: { type: 'boolean', description: 'Whether the page and its API answer (off: 404).' },
  Slug: shopSlugSchema,
  EmbedOrigins: { type: 'array', maxItems: 20, uniqueItems: true, items: embedOriginSchema, description: 'Origins allowed to embed the page in a frame.' },
  Note: { ...textSchema(2000), description: 'Shown on the page (empty: none).' },
  Terms: { ...textSchema(10000), description: 'Terms shown before Book (empty: none).' },
  Locale: {
    type: 'string',
    pattern: '^[a-zA-Z]{2,3}(-[A-Za-z0-9]{2,8})*$',
    maxLength: 35,
    description: 'BCP 47 locale for prices, dates and times (en-GB).',
    'x-message': 'must be a BCP 47 locale such as en-GB.',
  },
  HoldMinutes: {
    type: 'integer',
    minimum: 5,
    maximum: 60,
    description: "Minutes a customer's places are held while the form is filled in (default 10); an abandoned form frees them then.",
  },
  WaitlistOfferMinutes: {
    type: 'integer',
    minimum: 5,
    maximum: 1440,
    description: 'Minutes the places offered to a waitlist entry are held for its claim (default 30); unclaimed, they pass on to the next entry.',
  },
} as const;

export const operatorBookingPageSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Enabled', 'Slug', 'EmbedOrigins', 'Note', 'Terms', 'Locale', 'HoldMinutes', 'WaitlistOfferMinutes', 'Path'],
  properties: {
    Enabled: bookingPageFields.Enabled,
    Slug: { type: ['string', 'null'], description: 'Null until the owner chooses one.' },
    EmbedOrigins: { type: 'array', items: { type: 'string' } },
    Note: { type: 'string' },
    Terms: { type: 'string' },
    Locale: { type: 'string' },
    HoldMinutes: { type: 'integer' },
    WaitlistOfferMinutes: { type: 'integer' },
    Path: { type: ['string', 'null'], description: "The page's path under the base URL (/book/{Slug}); null without a slug." },
  },
} as const;
export type OperatorBookingPage = FromSchema<typeof operatorBookingPageSchema>;
