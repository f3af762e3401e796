// POST /api/v2/operator/keys: create an API key; the secret is in the answer once (owners only).
import type { FromSchema } from 'json-schema-to-ts';
import { SCOPES, type Operation } from '../operation.js';
import { apiKeySchema } from './keys.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const newKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Name', 'Scopes'],
  properties: {
    Name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\ud800-\\udfff]*$' },
    Scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: SCOPES } },
    Test: {
      type: 'boolean',
      description: "Default false. A sandbox key for a partner's integration: its bookings take test places, never live ones, and stay out of the live views.",
    },
  },
} as const;
export type NewKey = FromSchema<typeof newKeySchema>;

export const createOperatorKeyOperation = {
  operationId: 'createOperatorKey',
  method: 'post',
  path: '/api/v2/operator/keys',
  summary: 'Create an API key',
  description: 'The answer carries the secret: it is shown this once and stored only as a hash. An ota key gets a partner of its own, named after the key.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: newKeySchema,
  responses: {
    201: {
      description: 'The key with its secret.',
      schema: { ...apiKeySchema, required: [...apiKeySchema.required, 'Secret'], properties: { ...apiKeySchema.properties, Secret: { type: 'string' } } },
    },
    422: { description: 'Invalid name or scopes.' },
  },
} as const satisfies Operation;
