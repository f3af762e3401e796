// GET /api/v2/operator/mail/settings: the account's customer e-mail settings and templates (owners only).
import type { Operation } from '../operation.js';
import { mailSettingsSchema } from './mail.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const getMailSettingsOperation = {
  operationId: 'getMailSettings',
  method: 'get',
  path: '/api/v2/operator/mail/settings',
  summary: "The account's customer e-mail settings and templates",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  responses: { 200: { description: 'The settings, with the built-in templates and the placeholders.', schema: mailSettingsSchema } },
} as const satisfies Operation;
