// POST /api/v2/operator/password-reset: "Forgot your password?" sends a link to the address, when it is a user's.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const passwordResetRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Email'],
  properties: { Email: { ...textSchema(254), minLength: 3 } },
} as const;
export type PasswordResetRequest = FromSchema<typeof passwordResetRequestSchema>;

export const requestPasswordResetOperation = {
  operationId: 'requestPasswordReset',
  method: 'post',
  path: '/api/v2/operator/password-reset',
  summary: 'Ask for a password reset link',
  description:
    "Answers 202 whether or not the address is a user's: it tells nobody which addresses have accounts. When it is an enabled user's, an e-mail with a link that works once, for an hour, is sent (a newer request ends the older links). " +
    'Counted per e-mail and per address: past PASSWORD_RESET_MAX_PER_EMAIL within PASSWORD_RESET_WINDOW_SECONDS nothing more is sent to that e-mail (the answer stays 202); past PASSWORD_RESET_MAX_PER_ADDRESS the caller gets 429. ' +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: passwordResetRequestSchema,
  responses: {
    202: { description: "Taken: if the address is a user's, the link is on its way." },
    403: { description: 'The request came from another origin.' },
    429: { description: '`/rate-limited`: too many requests from this address; Retry-After says when to try again.' },
  },
} as const satisfies Operation;
