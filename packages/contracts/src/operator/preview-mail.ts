// POST /api/v2/operator/mail/preview: a template rendered with sample values, as the console's live preview shows it.
import type { Operation } from '../operation.js';
import { mailTemplateRequestSchema, renderedMailSchema } from './mail.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const previewMailOperation = {
  operationId: 'previewMail',
  method: 'post',
  path: '/api/v2/operator/mail/preview',
  summary: 'Render a template with sample values',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: mailTemplateRequestSchema,
  responses: {
    200: { description: 'The message as a customer would read it.', schema: renderedMailSchema },
    422: { description: 'The template does not render (the problem names the line).' },
  },
} as const satisfies Operation;
