// PATCH /api/v2/operator/mail/settings: change the sender, channels, reminder lead, locale or templates (owners only).
import type { Operation } from '../operation.js';
import { mailSettingsChangesSchema, mailSettingsSchema } from './mail.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const updateMailSettingsOperation = {
  operationId: 'updateMailSettings',
  method: 'patch',
  path: '/api/v2/operator/mail/settings',
  summary: "Change the account's customer e-mail settings or templates",
  description: 'Only the members sent change. A template that does not render is refused with its part and line; names and subjects are one line.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: mailSettingsChangesSchema,
  responses: {
    200: { description: 'The settings as they are now.', schema: mailSettingsSchema },
    422: { description: 'An invalid setting, or a template that does not render (the problem names the line).' },
  },
} as const satisfies Operation;
