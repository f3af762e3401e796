// DELETE /api/v2/operator/session: ends the caller's session and clears its cookie.
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const signOutOperation = {
  operationId: 'signOut',
  method: 'delete',
  path: '/api/v2/operator/session',
  summary: 'Sign out of the operator console',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  beforePasswordChange: true,
  responses: { 204: { description: 'Signed out; the session no longer works.' } },
} as const satisfies Operation;
