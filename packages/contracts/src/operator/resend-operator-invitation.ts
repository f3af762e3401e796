// POST /api/v2/operator/invitations/:InvitationID/resend: a new link for a pending invitation (owners only).
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { operatorInvitationSchema } from './users.schemas.js';

export const resendOperatorInvitationOperation = {
  operationId: 'resendOperatorInvitation',
  method: 'post',
  path: '/api/v2/operator/invitations/:InvitationID/resend',
  summary: 'Resend an invitation',
  description: 'A new e-mail with a new link, valid for 48 hours from now; the links sent before stop working (a queued e-mail with one is withdrawn).',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['InvitationID'], properties: { InvitationID: uuidSchema } },
  responses: {
    200: { description: 'The invitation with its new end.', schema: operatorInvitationSchema },
    404: { description: 'No pending invitation with this id in this account.' },
  },
} as const satisfies Operation;
