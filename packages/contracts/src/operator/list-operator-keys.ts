// GET /api/v2/operator/keys: the account's API keys, revoked ones included (owners only).
import type { Operation } from '../operation.js';
import { apiKeySchema } from './keys.schemas.js';
import { operatorTags } from './shared.schemas.js';

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
