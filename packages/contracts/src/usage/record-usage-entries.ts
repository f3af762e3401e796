// POST /api/v2/usage/meters/batch: record up to 1,000 usage entries, each validated on its own.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { IDEMPOTENCY_KEY_PATTERN, usageEntryProperties, usageEntrySchema } from './shared.schemas.js';

/** Most entries in one batch. */
export const MAX_BATCH_ENTRIES = 1000;

/** A batch entry: the members of a single entry plus an optional per-entry idempotency key. */
export const batchUsageEntrySchema = {
  type: 'object',
  required: ['Meter', 'Usage'],
  properties: {
    ...usageEntryProperties,
    IdempotencyKey: {
      type: 'string',
      pattern: IDEMPOTENCY_KEY_PATTERN,
      'x-message': 'must be 1 to 255 visible ASCII characters.',
      description: 'Same meaning as the Idempotency-Key header of a single POST, and the same key space: a retried entry is stored once.',
    },
  },
} as const;
export type BatchUsageEntry = FromSchema<typeof batchUsageEntrySchema>;

export const recordUsageEntriesBodySchema = {
  type: 'object',
  required: ['Entries'],
  properties: {
    Entries: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_BATCH_ENTRIES,
      // Entries are validated one by one in the handler (against batchUsageEntrySchema), so that one bad entry
      // is answered on its own instead of failing the whole batch.
      items: {
        description:
          'A usage entry: Meter, Usage, ExtraInfo, OccurredAt with the rules of POST /api/v2/usage/meters, plus an optional IdempotencyKey (1 to 255 visible ASCII characters).',
        examples: [{ Meter: 'api-calls', Usage: 1, OccurredAt: 1767225600, IdempotencyKey: 'req-42' }],
      },
      description: `1 to ${MAX_BATCH_ENTRIES} usage entries.`,
    },
  },
} as const;
export type RecordUsageEntriesBody = FromSchema<typeof recordUsageEntriesBodySchema>;

const fieldErrorSchema = {
  type: 'object',
  required: ['Field', 'Message'],
  properties: { Field: { type: 'string', description: 'Member of the entry, e.g. Usage.' }, Message: { type: 'string' } },
} as const;

export const batchEntryResultSchema = {
  type: 'object',
  required: ['Index', 'Status'],
  properties: {
    Index: { type: 'integer', description: 'Position of the entry in the request, from 0.' },
    Status: {
      type: 'string',
      enum: ['created', 'replayed', 'rejected'],
      description:
        'created: stored now; replayed: its IdempotencyKey was already used with the same entry, nothing new stored; rejected: not stored, see Errors.',
    },
    Entry: usageEntrySchema,
    Errors: { type: 'array', items: fieldErrorSchema },
  },
} as const;
export type BatchEntryResult = FromSchema<typeof batchEntryResultSchema>;

export const recordUsageEntriesResponseSchema = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'object',
      required: ['Created', 'Replayed', 'Rejected', 'Results'],
      properties: {
        Created: { type: 'integer' },
        Replayed: { type: 'integer' },
        Rejected: { type: 'integer' },
        Results: { type: 'array', items: batchEntryResultSchema, description: 'One result per entry, in request order.' },
      },
    },
  },
} as const;
export type RecordUsageEntriesResponse = FromSchema<typeof recordUsageEntriesResponseSchema>;

export const recordUsageEntriesOperation = {
  operationId: 'recordUsageEntries',
  method: 'post',
  path: '/api/v2/usage/meters/batch',
  summary: 'Record up to 1,000 usage entries',
  description:
    'Validates every entry on its own, with the rules of POST /api/v2/usage/meters, and stores all valid entries in one transaction. ' +
    'Answers 201 when every entry was created or replayed, 207 when at least one entry was rejected (the others are stored). ' +
    'An invalid envelope (not an object, no Entries array, empty, more than 1,000 entries) is a 422 and stores nothing. ' +
    'The Idempotency-Key header replays the whole answer; an entry IdempotencyKey dedupes that entry.',
  tags: ['Usage'],
  scope: 'usage:write',
  body: recordUsageEntriesBodySchema,
  idempotent: true,
  responses: {
    201: { description: 'Every entry created or replayed.', schema: recordUsageEntriesResponseSchema },
    207: { description: 'Some entries rejected; the valid ones are stored.', schema: recordUsageEntriesResponseSchema },
    400: { description: 'Malformed JSON or Idempotency-Key header.' },
    409: { description: 'A request with this Idempotency-Key is still running.' },
    413: { description: 'Body too large.' },
    415: { description: 'Body is not JSON.' },
    422: { description: 'Invalid envelope, or the Idempotency-Key was used with another body; nothing stored.' },
  },
} as const satisfies Operation;
