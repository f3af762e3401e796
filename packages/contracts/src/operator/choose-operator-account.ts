// POST /api/v2/operator/session/account: the signed-in person works in one of their accounts (after signing in with
// several, or from the header's switcher); the answer replaces the session cookie.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const accountChoiceSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['AccountID'],
  properties: { AccountID: { ...uuidSchema, description: 'One of the accounts the session names (`Accounts`).' } },
} as const;
export type AccountChoice = FromSchema<typeof accountChoiceSchema>;

export const chooseOperatorAccountOperation = {
  operationId: 'chooseOperatorAccount',
  method: 'post',
  path: '/api/v2/operator/session/account',
  summary: 'Work in another of your accounts',
  description:
    'A person may be a user of several accounts (one e-mail, one password). Signing in with several opens a session bound to none, ' +
    'which answers every other operation 403 `/account-choice-required` with the `Accounts` to choose from; this binds the browser to one. ' +
    'The session is replaced by a new one bound to the chosen account (204 with the new cookie), ending when the old one would have; ' +
    'the old session id stops working, so no id ever opens two accounts. ' +
    "Sent by the console with its session cookie: the Origin must be the service's own (or, without one, Sec-Fetch-Site: same-origin).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'none',
  body: accountChoiceSchema,
  responses: {
    204: { description: 'Now in the chosen account; Set-Cookie carries the new session.' },
    401: { description: '`/unauthorized`: no live session.' },
    403: { description: 'The request came from another origin.' },
    404: { description: '`/not-found`: the person is no user of this account (or their user there is disabled).' },
  },
} as const satisfies Operation;
