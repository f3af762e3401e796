// POST /api/v2/operator/session: an operator user signs in; the answer sets the session cookie.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const signInRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Email', 'Password'],
  properties: {
    // The e-mail is looked up in PostgreSQL, which refuses NUL. No password holds NUL or a lone surrogate, and scrypt
    // reads a trailing NUL as nothing: the right password with one appended signed in.
    Email: { ...textSchema(254), minLength: 3 },
    Password: { ...textSchema(1000), minLength: 1 },
  },
} as const;
export type SignInRequest = FromSchema<typeof signInRequestSchema>;

export const signInOperation = {
  operationId: 'signIn',
  method: 'post',
  path: '/api/v2/operator/session',
  summary: 'Sign in to the operator console',
  description:
    'Answers 204 with an HttpOnly, SameSite=Strict session cookie. A wrong e-mail and a wrong password get the same 401. ' +
    'A person who is a user of several accounts gets a session bound to none of them: every operation answers it 403 `/account-choice-required` with the `Accounts`, until chooseOperatorAccount binds it. ' +
    'Failed sign-ins are counted per e-mail and address together: over that budget the pair waits, 429 with Retry-After. ' +
    'An address over its much higher ceiling (failures across e-mails) lets only the right password of an e-mail without recent failures through. ' +
    'An address with as many sign-ins in progress as it may have at once (two by default) gets 429 with Retry-After: 1 at once, unchecked and not counted as a failure. ' +
    "Sent by the console: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin). Scripts use an admin API key instead.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: signInRequestSchema,
  responses: {
    204: {
      description: 'Signed in; Set-Cookie carries the session.',
      headers: { 'Set-Cookie': { description: 'backbone_session=<id>; HttpOnly; SameSite=Strict; Path=/' } },
    },
    401: { description: '`/invalid-credentials`: wrong e-mail or password.' },
    403: { description: 'The request came from another origin, or carried neither Origin nor Sec-Fetch-Site: same-origin.' },
    429: { description: '`/rate-limited`: too many failed sign-ins, or sign-ins from this address at once; Retry-After says when to try again.' },
  },
} as const satisfies Operation;
