// GET /api/v2/operator/audit: what owners (and the admin CLI) did to the account's activities, schedule, keys,
// users, booking page and e-mail settings, newest first, keyset-paged like the bookings.
import type { FromSchema } from 'json-schema-to-ts';
import { calendarDateSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { cursorSchema, limitSchema, nextSchema, operatorTags } from './shared.schemas.js';

/** Every action the audit records; a change outside this list is not audited (docs/api-notes.md says which). */
export const AUDIT_ACTIONS = [
  'activity.created',
  'activity.updated',
  'question.added',
  'timeslots.generated',
  'timeslots.removed',
  'timeslot.closed',
  'timeslot.reopened',
  'timeslot.capacity_changed',
  'key.created',
  'key.revoked',
  'key.rate_limit_changed',
  'user.created',
  'user.disabled',
  'password.changed',
  'booking_page.updated',
  'mail_settings.updated',
  'partner.customer_emails_changed',
  'invitation.created',
  'invitation.resent',
  'invitation.revoked',
  'invitation.accepted',
  'password.reset',
  'booking.price_changed',
  'booking.overbooked',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_SUBJECT_TYPES = ['activity', 'timeslot', 'key', 'user', 'booking_page', 'mail_settings', 'partner', 'invitation', 'booking'] as const;
export const AUDIT_ACTOR_KINDS = ['user', 'key', 'cli', 'system'] as const;

export const auditEntrySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'At', 'Action', 'Actor', 'Subject', 'Changes'],
  properties: {
    ID: { type: 'string', description: 'Increases with each entry of the account.' },
    At: { type: 'string', format: 'date-time', description: "The server's time of the change." },
    Action: { type: 'string', enum: AUDIT_ACTIONS },
    Actor: {
      type: 'object',
      additionalProperties: false,
      required: ['Kind', 'ID', 'Label'],
      description:
        'user: a console user (ID, Label its e-mail then); key: an admin key (ID, Label its name then); cli: the admin CLI; system: the service (the demo seed).',
      properties: {
        Kind: { type: 'string', enum: AUDIT_ACTOR_KINDS },
        ID: { type: ['string', 'null'], description: 'A UserID or KeyID; null for cli and system.' },
        Label: { type: ['string', 'null'] },
      },
    },
    Subject: {
      type: 'object',
      additionalProperties: false,
      required: ['Type', 'ID', 'Label'],
      description:
        "What was acted on: an ActivityID, a TimeslotID, a KeyID, a UserID, an InvitationID, the account's booking page or e-mail settings (its AccountID) or a PartnerID, with its name as it was (an activity's name, \"Activity, date time\" of a timeslot, a key's name, a user's or an invitation's e-mail, the page's path, \"E-mail settings\", a partner's name).",
      properties: {
        Type: { type: 'string', enum: AUDIT_SUBJECT_TYPES },
        ID: { type: 'string' },
        Label: { type: 'string' },
      },
    },
    Changes: {
      type: 'object',
      additionalProperties: { type: 'object', required: ['From', 'To'], properties: { From: {}, To: {} } },
      description: '{ Member: { From, To } } of what changed; From is null for what was created. Never a secret or a password.',
    },
  },
} as const;
export type AuditEntry = FromSchema<typeof auditEntrySchema>;

export const listOperatorAuditOperation = {
  operationId: 'listOperatorAudit',
  method: 'get',
  path: '/api/v2/operator/audit',
  summary: "The account's audit log",
  description:
    "Newest first. Keyset-paged: pass the answer's `Next` as `Cursor`; entries written meanwhile never shift later pages. " +
    "From and To are local dates of the account's time zone, both counted. An action that changed nothing is not recorded.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  query: {
    type: 'object',
    additionalProperties: false,
    properties: {
      Action: { type: 'string', enum: AUDIT_ACTIONS },
      From: { ...calendarDateSchema, description: "Only entries on or after this local date (the account's zone)." },
      To: { ...calendarDateSchema, description: "Only entries on or before this local date (the account's zone)." },
      Limit: limitSchema,
      Cursor: cursorSchema,
    },
  },
  responses: {
    200: {
      description: 'One page.',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['Entries', 'Next'],
        properties: { Entries: { type: 'array', items: auditEntrySchema }, Next: nextSchema },
      },
    },
    422: { description: 'An invalid filter or cursor, or To before From.' },
  },
} as const satisfies Operation;
export type AuditQuery = FromSchema<typeof listOperatorAuditOperation.query>;
export type AuditPage = FromSchema<(typeof listOperatorAuditOperation.responses)[200]['schema']>;
