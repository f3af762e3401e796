// GET /api/v2/operator/users: the account's console users (owners only).
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { operatorUserSchema } from './users.schemas.js';

export const listOperatorUsersOperation = {
  operationId: 'listOperatorUsers',
  method: 'get',
  path: '/api/v2/operator/users',
  summary: "List the account's console users",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  responses: { 200: { description: 'By e-mail.', schema: { type: 'array', items: operatorUserSchema } } },
} as const satisfies Operation;
