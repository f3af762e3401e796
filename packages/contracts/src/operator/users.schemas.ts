// A console user as the operator's user operations show it (list, add, disable; owners only).
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import { OPERATOR_ROLES } from '../operation.js';

export const operatorUserSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['UserID', 'Email', 'Name', 'Role', 'Disabled', 'CreatedAt'],
  properties: {
    UserID: uuidSchema,
    Email: { type: 'string' },
    Name: { type: ['string', 'null'], description: 'As the invitation gave it; null for a user added otherwise.' },
    Role: { type: 'string', enum: OPERATOR_ROLES },
    Disabled: { type: 'boolean' },
    CreatedAt: { type: 'string', format: 'date-time' },
  },
} as const;
export type ConsoleUser = FromSchema<typeof operatorUserSchema>;

/** A pending invitation as the owners' list shows it. */
export const operatorInvitationSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['InvitationID', 'Email', 'Name', 'Role', 'InvitedBy', 'CreatedAt', 'ExpiresAt', 'Expired', 'MailStatus'],
  properties: {
    InvitationID: uuidSchema,
    Email: { type: 'string' },
    Name: { type: 'string' },
    Role: { type: 'string', enum: OPERATOR_ROLES },
    InvitedBy: { type: 'string', description: "Who sent the latest link: an e-mail, or an API key's name." },
    CreatedAt: { type: 'string', format: 'date-time' },
    ExpiresAt: { type: 'string', format: 'date-time', description: 'The end of the latest link (48 hours after it was sent).' },
    Expired: { type: 'boolean', description: 'The latest link has expired: resend the invitation for a new one.' },
    MailStatus: { type: 'string', enum: ['queued', 'sent', 'failed', 'cancelled'], description: 'Where the e-mail with the latest link is.' },
  },
} as const;
export type ConsoleInvitation = FromSchema<typeof operatorInvitationSchema>;

/** A link's token, as the console's page reads it from the link (43 base64url characters). */
export const linkTokenSchema = { type: 'string', minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' } as const;

/** What a link that opens nothing answers: 410 with the reason. */
export const linkNotValidResponse = {
  description:
    '`/link-not-valid`: the link opens nothing; `Reason` says why: `expired`, `used`, `revoked` (an invitation withdrawn), `replaced` (a newer link was sent) or `unknown`. Nothing changed.',
} as const;

/** The accounts a person may work in (a user of theirs there that is not disabled), by name. */
export const operatorAccountsSchema = {
  type: 'array',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['AccountID', 'AccountName'],
    properties: { AccountID: uuidSchema, AccountName: { type: 'string' } },
  },
} as const;
export type OperatorAccountChoice = FromSchema<typeof operatorAccountsSchema>[number];
