// DELETE /api/v2/operator/keys/:KeyID: revoke an API key (owners only).
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

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
