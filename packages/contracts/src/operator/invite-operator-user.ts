// POST /api/v2/operator/invitations: invite someone to the console by e-mail (owners only).
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import { OPERATOR_ROLES, type Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { operatorInvitationSchema } from './users.schemas.js';

export const newInvitationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Email', 'Name', 'Role'],
  properties: {
    Email: { type: 'string', format: 'email', maxLength: 254 },
    Name: { ...textSchema(200), minLength: 1 },
    Role: { type: 'string', enum: OPERATOR_ROLES },
  },
} as const;
export type NewOperatorInvitation = FromSchema<typeof newInvitationSchema>;

export const inviteOperatorUserOperation = {
  operationId: 'inviteOperatorUser',
  method: 'post',
  path: '/api/v2/operator/invitations',
  summary: 'Invite a console user by e-mail',
  description:
    'Sends the address an e-mail with a link that works once, for 48 hours: the invitee chooses a password there and is signed in as a user of this account with the given name and role. ' +
    'The link is written by the mail worker as it sends the message (only its hash is kept). The e-mail is sent whatever the customer e-mail settings say, and is not metered.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: newInvitationSchema,
  responses: {
    201: { description: 'The pending invitation; its e-mail is queued.', schema: operatorInvitationSchema },
    422: { description: 'Invalid e-mail or name, an address already a user of this account, or one with a pending invitation (resend it).' },
  },
} as const satisfies Operation;
