// POST /api/v2/operator/invitations/accept: the invitee chooses a password from the link and is signed in.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { linkNotValidResponse, linkTokenSchema } from './users.schemas.js';

export const invitationAcceptanceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Token', 'Password'],
  properties: {
    Token: { ...linkTokenSchema, description: "The token of the invitation's link (after the #)." },
    Password: { ...textSchema(1000), minLength: 1, description: 'At least 12 characters.' },
  },
} as const;
export type InvitationAcceptance = FromSchema<typeof invitationAcceptanceSchema>;

export const acceptOperatorInvitationOperation = {
  operationId: 'acceptOperatorInvitation',
  method: 'post',
  path: '/api/v2/operator/invitations/accept',
  summary: 'Accept an invitation',
  description:
    'Creates the invited user with this password and signs them in (204 with the session cookie, like signIn). The link works once. ' +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: invitationAcceptanceSchema,
  responses: {
    204: { description: 'Accepted and signed in; Set-Cookie carries the session.' },
    403: { description: 'The request came from another origin.' },
    410: linkNotValidResponse,
    422: { description: 'The password is too short (`Password`).' },
  },
} as const satisfies Operation;
