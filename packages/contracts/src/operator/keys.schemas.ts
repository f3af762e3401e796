// An API key as the operator's key operations show it (list and create; owners only): prefixes, never secrets.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import { SCOPES } from '../operation.js';

export const apiKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['KeyID', 'Name', 'Prefix', 'Scopes', 'CreatedAt', 'LastUsedAt', 'RevokedAt'],
  properties: {
    KeyID: uuidSchema,
    Name: { type: 'string' },
    Prefix: { type: 'string', description: "The secret's first characters, to tell keys apart." },
    Scopes: { type: 'array', items: { type: 'string', enum: SCOPES } },
    CreatedAt: { type: 'string', format: 'date-time' },
    LastUsedAt: { type: ['string', 'null'], format: 'date-time', description: 'To the minute.' },
    RevokedAt: { type: ['string', 'null'], format: 'date-time' },
    Test: {
      type: 'boolean',
      description: 'A sandbox key: its bookings are test bookings, on test places, shown under the Test bookings filter.',
    },
  },
} as const;
export type ApiKey = FromSchema<typeof apiKeySchema>;
