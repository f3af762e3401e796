// PATCH /api/v2/operator/partners/:PartnerID/customer-emails: whether the customers of a partner's (and its OCTO)
// bookings get the account's e-mails. Off by default: most resellers write to their own customers.
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const setPartnerCustomerEmailsOperation = {
  operationId: 'setPartnerCustomerEmails',
  method: 'patch',
  path: '/api/v2/operator/partners/:PartnerID/customer-emails',
  summary: "Switch the account's e-mails to a partner's customers on or off",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['PartnerID'], properties: { PartnerID: uuidSchema } },
  body: { type: 'object', additionalProperties: false, required: ['Enabled'], properties: { Enabled: { type: 'boolean' } } },
  responses: { 204: { description: 'Switched.' }, 404: { description: 'No such partner in this account.' } },
} as const satisfies Operation;
