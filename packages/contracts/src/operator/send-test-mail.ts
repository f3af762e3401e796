// POST /api/v2/operator/mail/test: a template rendered with sample values and sent to an address of the owner's choice
// through the mail outbox, like any customer e-mail (it appears on the E-mails page and is metered once sent).
import type { Operation } from '../operation.js';
import { mailAddressSchema, mailMessageSchema, mailTemplateRequestSchema } from './mail.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const sendTestMailOperation = {
  operationId: 'sendTestMail',
  method: 'post',
  path: '/api/v2/operator/mail/test',
  summary: 'Send a template to an address as a test',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: {
    ...mailTemplateRequestSchema,
    required: ['Kind', 'To'],
    properties: {
      ...mailTemplateRequestSchema.properties,
      To: mailAddressSchema,
    },
  },
  responses: {
    201: { description: 'Queued: the mail worker sends it within moments.', schema: mailMessageSchema },
    422: { description: 'An invalid address, or a template that does not render.' },
  },
} as const satisfies Operation;
