// GET /api/v2/operator/invitations: the account's pending invitations (owners only).
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { operatorInvitationSchema } from './users.schemas.js';

export const listOperatorInvitationsOperation = {
  operationId: 'listOperatorInvitations',
  method: 'get',
  path: '/api/v2/operator/invitations',
  summary: "List the account's pending invitations",
  description: 'Neither accepted nor revoked, newest first; an expired one stays until it is resent or revoked.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  responses: { 200: { description: 'Newest first.', schema: { type: 'array', items: operatorInvitationSchema } } },
} as const satisfies Operation;
