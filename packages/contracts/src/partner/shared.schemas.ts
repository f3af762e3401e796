// Schemas and answers shared by several partner (OTA) operations. Member names are PascalCase as in the contract.
import type { FromSchema } from 'json-schema-to-ts';
import { clockTimeSchema, uuidSchema } from '../common.schemas.js';

export const partnerTimeSchema = { ...clockTimeSchema, 'x-message': 'must be a clock time in the form HH:MM (00:00 to 23:59).' } as const;

/**
 * Visible text without control characters or unpaired surrogates: PostgreSQL cannot store NUL nor a lone surrogate
 * in jsonb, and names with line breaks help nobody.
 */
export function visibleText<const Max extends number>(maxLength: Max) {
  return {
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*[^\\s\\u0000-\\u001f\\u007f\\ud800-\\udfff][^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$',
    'x-message': 'must contain visible text and no control characters.',
  } as const;
}

export const activityIdParams = {
  type: 'object',
  required: ['ActivityID'],
  properties: {
    ActivityID: {
      ...uuidSchema,
      description: 'UUID of the activity (canonical 8-4-4-4-12 hex form, any case).',
      'x-message': 'must be a UUID in canonical 8-4-4-4-12 hex form.',
    },
  },
} as const;

export const partnerTags = ['Partner'] as const;
export const notFoundActivity = { description: "No active activity with this ActivityID in the caller's account." } as const;
export const invalidActivityId = { description: 'ActivityID is not a UUID.' } as const;

export const productSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'ActivityID', 'Name', 'Description', 'DurationMinutes', 'TimeZone', 'Price', 'MaxParticipants'],
  properties: {
    ID: { type: 'integer', description: 'Numeric product ID, usable in resolve-product.' },
    ActivityID: { ...uuidSchema, description: 'UUID of the activity, used by availability, questions and booking.' },
    Name: { type: 'string' },
    Description: { type: 'string' },
    DurationMinutes: { type: 'integer', minimum: 1 },
    TimeZone: { type: 'string', description: 'IANA time zone in which the activity takes place; dates and times are local to it.' },
    Price: {
      type: 'object',
      additionalProperties: false,
      required: ['Amount', 'Currency'],
      description: 'Price per participant.',
      properties: {
        Amount: { type: 'integer', minimum: 0, description: "Integer amount in the currency's minor units (cents)." },
        Currency: { type: 'string', pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code.' },
      },
    },
    MaxParticipants: { type: 'integer', minimum: 1, description: 'Most participants one booking may carry.' },
  },
} as const;
export type Product = FromSchema<typeof productSchema>;

export const QUESTION_TYPES = ['text', 'textarea', 'select', 'multiselect', 'checkbox', 'date', 'email', 'phone', 'number', 'file', 'signature'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** What a file may be: the media types an upload may declare, and a file question may accept (Options). */
export const FILE_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'image/webp'] as const;
export type FileContentType = (typeof FILE_CONTENT_TYPES)[number];

/** The largest file an upload may carry: 10 MiB. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

export const questionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['ID', 'Question', 'Type', 'Required', 'Options', 'PerParticipant'],
  properties: {
    ID: { type: 'integer', description: 'Question ID, sent back as Answers[].QuestionID.' },
    Question: { type: 'string' },
    Type: { type: 'string', enum: QUESTION_TYPES },
    Required: { type: 'boolean' },
    Options: {
      type: 'array',
      items: { type: 'string' },
      description:
        'The choices of a select or multiselect question; for a file question, the media types it accepts (empty: any of application/pdf, image/jpeg, image/png, image/webp); empty otherwise.',
    },
    PerParticipant: { type: 'boolean', description: 'Asked once per participant: answers carry a Participant number.' },
  },
} as const;
export type Question = FromSchema<typeof questionSchema>;

/** The two questions paths answer the same. */
export const questionsResponses = {
  200: { description: 'The waiver questions, in display order.', schema: { type: 'array', items: questionSchema } },
  400: invalidActivityId,
  404: notFoundActivity,
} as const;
