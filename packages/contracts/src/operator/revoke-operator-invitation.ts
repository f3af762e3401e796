// DELETE /api/v2/operator/invitations/:InvitationID: withdraw a pending invitation (owners only).
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const revokeOperatorInvitationOperation = {
  operationId: 'revokeOperatorInvitation',
  method: 'delete',
  path: '/api/v2/operator/invitations/:InvitationID',
  summary: 'Revoke an invitation',
  description: 'Its links stop working at once (a queued e-mail is withdrawn); the page of a link then says the invitation was withdrawn.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['InvitationID'], properties: { InvitationID: uuidSchema } },
  responses: { 204: { description: 'Revoked.' }, 404: { description: 'No pending invitation with this id in this account.' } },
} as const satisfies Operation;
