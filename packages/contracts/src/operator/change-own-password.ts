// POST /api/v2/operator/session/password: the signed-in user changes their own password (also the way out of a
// one-time password, which allows nothing else).
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const ownPasswordChangeSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['CurrentPassword', 'NewPassword'],
  properties: {
    CurrentPassword: { ...textSchema(1000), minLength: 1 },
    NewPassword: { ...textSchema(1000), minLength: 1, description: 'At least 12 characters, and not the current password.' },
  },
} as const;
export type OwnPasswordChange = FromSchema<typeof ownPasswordChangeSchema>;

export const changeOwnPasswordOperation = {
  operationId: 'changeOwnPassword',
  method: 'post',
  path: '/api/v2/operator/session/password',
  summary: 'Change your own password',
  description:
    "The signed-in user's password, checked first: a wrong one is a 422 on CurrentPassword and counts as a failed sign-in (429 with Retry-After past the budget). " +
    'The user’s other sessions end; this one goes on. A user given a one-time password (by the admin CLI or an owner) may call nothing else until this succeeds. ' +
    'An admin API key has no password: 403.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  beforePasswordChange: true,
  body: ownPasswordChangeSchema,
  responses: {
    204: { description: 'Changed.' },
    403: { description: 'Called with an admin API key, which has no password.' },
    422: { description: 'The current password is wrong, or the new one is too short or the same.' },
    429: { description: '`/rate-limited`: too many wrong passwords for this e-mail from this address; Retry-After says when to try again.' },
  },
} as const satisfies Operation;
