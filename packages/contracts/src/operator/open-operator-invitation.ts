// POST /api/v2/operator/invitations/open: what an invitation's link opens, for its join page.
import type { FromSchema } from 'json-schema-to-ts';
import { OPERATOR_ROLES, type Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { linkNotValidResponse, linkTokenSchema } from './users.schemas.js';

export const invitationLinkSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Token'],
  properties: { Token: { ...linkTokenSchema, description: "The token of the invitation's link (after the #)." } },
} as const;
export type InvitationLink = FromSchema<typeof invitationLinkSchema>;

export const openedInvitationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Email', 'Name', 'Role', 'AccountName', 'HasPassword'],
  properties: {
    Email: { type: 'string' },
    Name: { type: 'string' },
    Role: { type: 'string', enum: OPERATOR_ROLES },
    AccountName: { type: 'string', description: 'The account the invitation is to.' },
    HasPassword: {
      type: 'boolean',
      description:
        'The address signs in to the console already (a user of another account): acceptOperatorInvitation takes that password, and never replaces it.',
    },
  },
} as const;
export type OpenedInvitation = FromSchema<typeof openedInvitationSchema>;

export const openOperatorInvitationOperation = {
  operationId: 'openOperatorInvitation',
  method: 'post',
  path: '/api/v2/operator/invitations/open',
  summary: 'What an invitation link opens',
  description:
    "The join page's first request: the invitation's account, name and role, and whether the invitee chooses a password or gives the one they have. " +
    'Changes nothing. The token travels in the body, never in a URL. ' +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: invitationLinkSchema,
  responses: {
    200: { description: 'The invitation.', schema: openedInvitationSchema, headers: { 'Cache-Control': { description: 'no-store' } } },
    403: { description: 'The request came from another origin.' },
    410: linkNotValidResponse,
  },
} as const satisfies Operation;
