// GET /api/v2/operator/reports/sales: bookings, participants and revenue per currency, by channel, partner and activity.
import type { FromSchema } from 'json-schema-to-ts';
import { BOOKING_CHANNELS, calendarDateSchema, uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

/** Which date a sales report's range is of: the timeslot's (takes place on) or the booking's own (booked on). */
export const SALES_REPORT_DATES = ['takes_place', 'booked'] as const;
export type SalesReportDate = (typeof SALES_REPORT_DATES)[number];

const figures = {
  Bookings: { type: 'integer' },
  Participants: { type: 'integer' },
  RevenueMinor: { type: 'integer', description: "The bookings' totals as sold, in minor units of the currency." },
} as const;
const FIGURES = ['Bookings', 'Participants', 'RevenueMinor'] as const;

const figuresSchema = { type: 'object', additionalProperties: false, required: FIGURES, properties: figures } as const;

export const salesReportSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['From', 'To', 'By', 'Currencies'],
  properties: {
    From: calendarDateSchema,
    To: calendarDateSchema,
    By: { type: 'string', enum: SALES_REPORT_DATES, description: 'Which date From and To are of.' },
    Currencies: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['Currency', ...FIGURES, 'ByChannel', 'ByPartner', 'ByActivity', 'ByPaymentMethod', 'Cancelled'],
        properties: {
          Currency: { type: 'string' },
          ...figures,
          ByChannel: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['Channel', ...FIGURES],
              properties: { Channel: { type: 'string', enum: BOOKING_CHANNELS }, ...figures },
            },
          },
          ByPartner: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['PartnerID', 'PartnerName', ...FIGURES],
              properties: { PartnerID: uuidSchema, PartnerName: { type: 'string' }, ...figures },
            },
          },
          ByActivity: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['ActivityID', 'ActivityName', ...FIGURES],
              properties: { ActivityID: uuidSchema, ActivityName: { type: 'string' }, ...figures },
            },
          },
          ByPaymentMethod: {
            type: 'array',
            description:
              'The cash-up: the point-of-sale sales by how they were paid (those whose method the desk recorded). Only with By=booked: it is of the days the money came in; empty otherwise.',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['PaymentMethod', ...FIGURES],
              properties: { PaymentMethod: { type: 'string', enum: ['cash', 'card', 'other'] }, ...figures },
            },
          },
          Cancelled: figuresSchema,
        },
      },
    },
  },
} as const;
export type SalesReport = FromSchema<typeof salesReportSchema>;

export const getOperatorSalesReportOperation = {
  operationId: 'getOperatorSalesReport',
  method: 'get',
  path: '/api/v2/operator/reports/sales',
  summary: 'Sales by channel, partner and activity',
  description:
    "Confirmed bookings whose timeslot's local date (By=takes_place, the default) or whose booking day in the account's time zone " +
    '(By=booked: the end of the day reads what was sold that day) lies From to To (both counted, at most 366 days), per currency, by channel, by partner ' +
    '(ota bookings) and by activity, largest revenue first; cancelled bookings apart. Holds are not sales and are left out.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  query: {
    type: 'object',
    additionalProperties: false,
    required: ['From', 'To'],
    properties: {
      From: calendarDateSchema,
      To: calendarDateSchema,
      By: {
        type: 'string',
        enum: SALES_REPORT_DATES,
        default: 'takes_place',
        description: "takes_place: the timeslot's date; booked: the day the booking was made.",
      },
    },
  },
  responses: {
    200: { description: 'The report.', schema: salesReportSchema },
    422: { description: 'From or To missing or not a date; To before From; more than 366 days.' },
  },
} as const satisfies Operation;
export type SalesReportQuery = FromSchema<typeof getOperatorSalesReportOperation.query>;
