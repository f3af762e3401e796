// GET /api/v2/operator/mail/messages: the account's e-mails, newest first, with their status and the rendered message.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { mailMessageSchema } from './mail.schemas.js';
import { cursorSchema, limitSchema, nextSchema, operatorTags } from './shared.schemas.js';

export const listMailMessagesOperation = {
  operationId: 'listMailMessages',
  method: 'get',
  path: '/api/v2/operator/mail/messages',
  summary: "List the account's e-mails",
  description: "Newest first. Keyset-paged: pass the answer's `Next` as `Cursor`.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  query: { type: 'object', additionalProperties: false, properties: { Limit: limitSchema, Cursor: cursorSchema } },
  responses: {
    200: {
      description: 'One page.',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['Messages', 'Next'],
        properties: { Messages: { type: 'array', items: mailMessageSchema }, Next: nextSchema },
      },
    },
    422: { description: 'An invalid cursor.' },
  },
} as const satisfies Operation;
export type MailMessagesPage = FromSchema<(typeof listMailMessagesOperation.responses)[200]['schema']>;
