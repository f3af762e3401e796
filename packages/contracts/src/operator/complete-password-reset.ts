// POST /api/v2/operator/password-reset/complete: the new password, from the reset link; signs in.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { linkNotValidResponse, linkTokenSchema } from './users.schemas.js';

export const passwordResetCompletionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Token', 'NewPassword'],
  properties: {
    Token: { ...linkTokenSchema, description: 'The token of the reset link (after the #).' },
    NewPassword: { ...textSchema(1000), minLength: 1, description: 'At least 12 characters.' },
  },
} as const;
export type PasswordResetCompletion = FromSchema<typeof passwordResetCompletionSchema>;

export const completePasswordResetOperation = {
  operationId: 'completePasswordReset',
  method: 'post',
  path: '/api/v2/operator/password-reset/complete',
  summary: 'Choose a new password from a reset link',
  description:
    'Sets the password of the person (in every account of theirs), ends every session of theirs and signs this browser in as signIn does (204 with the session cookie). The link works once. ' +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: passwordResetCompletionSchema,
  responses: {
    204: { description: 'Changed and signed in; Set-Cookie carries the session.' },
    403: { description: 'The request came from another origin.' },
    410: linkNotValidResponse,
    422: { description: 'The new password is too short (`NewPassword`).' },
  },
} as const satisfies Operation;
