// GET /api/v2/operator/bookings/:Reference/history: every change of a booking, oldest first, with who made it.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorBookingParams } from './get-operator-booking.js';
import { operatorTags } from './shared.schemas.js';

export const HISTORY_ACTIONS = [
  'created',
  'held',
  'confirmed',
  'rescheduled',
  'edited',
  'checked-in',
  'check-in-undone',
  'cancelled',
  'expired',
  'repriced',
] as const;

export const historyItemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['At', 'Action', 'Actor', 'Reason', 'Changes'],
  properties: {
    At: { type: 'string', format: 'date-time' },
    Action: { type: 'string', enum: HISTORY_ACTIONS },
    Actor: {
      type: 'object',
      additionalProperties: false,
      required: ['Kind'],
      description:
        "partner: a partner's key (PartnerID, KeyID); user: a console user (UserID) or an admin key (KeyID); customer: the customer on the booking page or at its manage link; system: the service.",
      properties: {
        Kind: { type: 'string', enum: ['partner', 'user', 'customer', 'system'] },
        PartnerID: uuidSchema,
        PartnerName: { type: 'string' },
        KeyID: uuidSchema,
        UserID: uuidSchema,
        UserEmail: { type: 'string' },
      },
    },
    Reason: { type: ['string', 'null'] },
    Changes: {
      type: ['object', 'null'],
      additionalProperties: { type: 'object', required: ['From', 'To'], properties: { From: {}, To: {} } },
      description: '{ Member: { From, To } } of a reschedule or an edit.',
    },
  },
} as const;
export type HistoryItem = FromSchema<typeof historyItemSchema>;

export const listOperatorBookingHistoryOperation = {
  operationId: 'listOperatorBookingHistory',
  method: 'get',
  path: '/api/v2/operator/bookings/:Reference/history',
  summary: 'The history of a booking',
  description:
    "Oldest first. The creation (created, or held for a hold) and a hold's expiry are read from the booking itself; every later change is recorded when made.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: operatorBookingParams,
  responses: {
    200: {
      description: 'The history.',
      schema: { type: 'object', additionalProperties: false, required: ['Items'], properties: { Items: { type: 'array', items: historyItemSchema } } },
    },
    400: { description: 'Reference is not a booking reference.' },
    404: { description: 'No such booking in this account.' },
  },
} as const satisfies Operation;
export type BookingHistory = FromSchema<(typeof listOperatorBookingHistoryOperation.responses)[200]['schema']>;
