// POST /api/v2/operator/invitations/accept: the invitee chooses a password (or gives the one they have) and is signed in.
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
    Password: {
      ...textSchema(1000),
      minLength: 1,
      description: 'A new password of at least 12 characters; or, when the address signs in already (`HasPassword`), that password.',
    },
  },
} as const;
export type InvitationAcceptance = FromSchema<typeof invitationAcceptanceSchema>;

export const acceptOperatorInvitationOperation = {
  operationId: 'acceptOperatorInvitation',
  method: 'post',
  path: '/api/v2/operator/invitations/accept',
  summary: 'Accept an invitation',
  description:
    "Creates the invited user and signs them in to the invitation's account (204 with the session cookie, like signIn). The link works once. " +
    'An address that signs in already (a user of another account) gives its password, checked and counted like a sign-in; ' +
    'an invitation never replaces a password. ' +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: invitationAcceptanceSchema,
  responses: {
    204: { description: 'Accepted and signed in; Set-Cookie carries the session.' },
    403: { description: 'The request came from another origin.' },
    410: linkNotValidResponse,
    422: { description: 'The new password is too short, or the existing one is wrong (`Password`).' },
    429: { description: '`/rate-limited`: too many wrong passwords for this address; Retry-After says when to try again.' },
  },
} as const satisfies Operation;
