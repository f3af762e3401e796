// POST /api/v2/operator/users/:UserID/disable: disable a console user (owners only).
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { operatorUserSchema } from './users.schemas.js';

export const disableOperatorUserOperation = {
  operationId: 'disableOperatorUser',
  method: 'post',
  path: '/api/v2/operator/users/:UserID/disable',
  summary: 'Disable a console user',
  description:
    'The user can no longer sign in and its sessions end. Repeating it changes nothing. ' +
    "The account's last active owner is never disabled (409), whoever asks, that owner included.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['UserID'], properties: { UserID: uuidSchema } },
  responses: {
    200: { description: 'The user, disabled.', schema: operatorUserSchema },
    404: { description: 'No such user in this account.' },
    409: { description: "`/last-owner`: the user is the account's last active owner; nothing changes." },
  },
} as const satisfies Operation;
