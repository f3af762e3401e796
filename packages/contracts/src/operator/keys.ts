// API keys, for owners only: list (prefixes, never secrets), create (the secret is in the answer once), revoke.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import { SCOPES, type Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

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
  },
} as const;
export type ApiKey = FromSchema<typeof apiKeySchema>;

export const listOperatorKeysOperation = {
  operationId: 'listOperatorKeys',
  method: 'get',
  path: '/api/v2/operator/keys',
  summary: "List the account's API keys",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  responses: { 200: { description: 'Every key, revoked ones included, oldest first.', schema: { type: 'array', items: apiKeySchema } } },
} as const satisfies Operation;

export const newKeySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Name', 'Scopes'],
  properties: {
    Name: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f\\ud800-\\udfff]*$' },
    Scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: SCOPES } },
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

export const revokeOperatorKeyOperation = {
  operationId: 'revokeOperatorKey',
  method: 'delete',
  path: '/api/v2/operator/keys/:KeyID',
  summary: 'Revoke an API key',
  description: 'The key stops working at once (within AUTH_CACHE_TTL_MS on servers that cache verified keys).',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['KeyID'], properties: { KeyID: uuidSchema } },
  responses: { 204: { description: 'Revoked.' }, 404: { description: 'No such active key in this account.' } },
} as const satisfies Operation;
