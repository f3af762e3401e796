// The customer e-mails' shared schemas: an account's settings and templates, and a message of the mail outbox.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema, uuidSchema } from '../common.schemas.js';

/** The kinds an owner writes templates for, as the domain names them (packages/domain mail-templates.ts). */
export const MAIL_TEMPLATE_KINDS = ['confirmation', 'change', 'cancellation', 'reminder', 'waitlist-offer'] as const;
/** Every kind of message: the customers' (templates), a test send, and the staff's (an invitation, a password reset). */
export const MAIL_MESSAGE_KINDS = [...MAIL_TEMPLATE_KINDS, 'test', 'invitation', 'password-reset'] as const;
export const MAIL_STATUSES = ['queued', 'sent', 'failed', 'cancelled'] as const;

/** One line of text: a CR or LF in a name or subject would start a header of its own. */
const oneLine = <const Max extends number>(maxLength: Max) => ({ type: 'string', minLength: 1, maxLength, pattern: '^[^\\r\\n\\u0000]*$' }) as const;
export const mailAddressSchema = { type: 'string', format: 'email', maxLength: 254, 'x-message': 'must be a valid email address.' } as const;

export const mailTemplateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Subject', 'Text', 'Html'],
  properties: {
    Subject: { ...oneLine(300), description: 'One line; placeholders as in Text.' },
    Text: { ...textSchema(20000), minLength: 1, description: 'The plain-text part: {{firstName}}, {{#manageLink}}...{{/manageLink}} (docs/emails.md).' },
    Html: { ...textSchema(50000), minLength: 1, description: 'The HTML part; inserted values are HTML-escaped.' },
  },
} as const;
export type MailTemplateBody = FromSchema<typeof mailTemplateSchema>;

export const mailSettingsFields = {
  SenderName: { ...oneLine(200), type: ['string', 'null'], description: "The name customers see as the sender (default: the account's name)." },
  ReplyTo: { ...mailAddressSchema, type: ['string', 'null'], description: "Where customers' answers go (default: none)." },
  OnlineEnabled: { type: 'boolean', description: "E-mail the online shop's customers (default true)." },
  PosEnabled: { type: 'boolean', description: "E-mail the point of sale's customers (default true)." },
  ReminderHours: { type: 'integer', minimum: 0, maximum: 336, description: 'Hours before the start the reminder goes; 0: no reminders (default 24).' },
  Locale: {
    type: 'string',
    minLength: 2,
    maxLength: 35,
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$',
    description: 'How dates and times are written (BCP 47, default en-GB).',
  },
} as const;

const templatesSchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(MAIL_TEMPLATE_KINDS.map((kind) => [kind, mailTemplateSchema])) as Record<
    (typeof MAIL_TEMPLATE_KINDS)[number],
    typeof mailTemplateSchema
  >,
} as const;

export const mailSettingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['SenderName', 'ReplyTo', 'OnlineEnabled', 'PosEnabled', 'ReminderHours', 'Locale', 'Templates', 'DefaultTemplates', 'Placeholders', 'Partners'],
  properties: {
    ...mailSettingsFields,
    Templates: { ...templatesSchema, description: 'The kinds the owner rewrote; the others use DefaultTemplates.' },
    DefaultTemplates: { ...templatesSchema, required: MAIL_TEMPLATE_KINDS, description: 'The built-in templates.' },
    Placeholders: { type: 'array', items: { type: 'string' }, description: 'The names a template may use.' },
    Partners: {
      type: 'array',
      description:
        "The account's partners by name, each with whether its bookings' customers get the account's e-mails (off unless switched on with setPartnerCustomerEmails: most resellers write to their own customers).",
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['PartnerID', 'Name', 'CustomerEmails'],
        properties: { PartnerID: uuidSchema, Name: { type: 'string' }, CustomerEmails: { type: 'boolean' } },
      },
    },
  },
} as const;
export type MailSettings = FromSchema<typeof mailSettingsSchema>;

export const mailSettingsChangesSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...mailSettingsFields,
    Templates: {
      ...templatesSchema,
      description: 'Replaces the rewritten templates: a kind left out goes back to the built-in one. Each must render (422 names the line).',
    },
  },
} as const;
export type MailSettingsChanges = FromSchema<typeof mailSettingsChangesSchema>;

export const mailTemplateRequestSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Kind'],
  properties: {
    Kind: { type: 'string', enum: MAIL_TEMPLATE_KINDS },
    Template: { ...mailTemplateSchema, description: "The template to render; left out: the account's current one for Kind." },
  },
} as const;

export const renderedMailSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Subject', 'Text', 'Html'],
  properties: { Subject: { type: 'string' }, Text: { type: 'string' }, Html: { type: 'string' } },
} as const;
export type RenderedMailBody = FromSchema<typeof renderedMailSchema>;

export const mailMessageSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'MessageID',
    'Kind',
    'To',
    'Subject',
    'Text',
    'Html',
    'Status',
    'Attempts',
    'LastError',
    'NextAttemptAt',
    'SentAt',
    'CreatedAt',
    'BookingReference',
  ],
  properties: {
    MessageID: { type: 'string' },
    Kind: { type: 'string', enum: MAIL_MESSAGE_KINDS },
    To: { type: 'string' },
    Subject: { type: ['string', 'null'], description: 'Null until the message is first rendered (when it is due).' },
    Text: { type: ['string', 'null'] },
    Html: { type: ['string', 'null'] },
    Status: { type: 'string', enum: MAIL_STATUSES, description: 'cancelled: a reminder withdrawn because its booking was cancelled or moved.' },
    Attempts: { type: 'integer' },
    LastError: { type: ['string', 'null'], description: "The mail server's last refusal, or why the message was withdrawn." },
    NextAttemptAt: { type: 'string', format: 'date-time', description: 'When a queued message is (next) due.' },
    SentAt: { type: ['string', 'null'], format: 'date-time' },
    CreatedAt: { type: 'string', format: 'date-time' },
    BookingReference: { type: ['string', 'null'] },
  },
} as const;
export type MailMessage = FromSchema<typeof mailMessageSchema>;
