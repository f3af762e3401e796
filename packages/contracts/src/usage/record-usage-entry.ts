// POST /api/v2/usage/meters: record one usage entry.
import type { FromSchema } from 'json-schema-to-ts';
import type { Operation } from '../operation.js';
import { usageEntryProperties, usageEntrySchema } from './shared.schemas.js';

export const recordUsageEntryBodySchema = {
  type: 'object',
  required: ['Meter', 'Usage'],
  properties: usageEntryProperties,
} as const;
export type RecordUsageEntryBody = FromSchema<typeof recordUsageEntryBodySchema>;

export const recordUsageEntryResponseSchema = {
  type: 'object',
  required: ['data'],
  properties: { data: usageEntrySchema },
} as const;
export type RecordUsageEntryResponse = FromSchema<typeof recordUsageEntryResponseSchema>;

export const recordUsageEntryOperation = {
  operationId: 'recordUsageEntry',
  method: 'post',
  path: '/api/v2/usage/meters',
  summary: 'Record a usage entry',
  description:
    'Stores one usage entry. A 201 means the entry is durable and already counted in every summary asked for afterwards. ' +
    'With an Idempotency-Key, a retry with the same body returns the first answer (Idempotent-Replayed: true) and counts nothing new; ' +
    'a retry while the first request is still running gets 409 and may try again; the same key with another body is refused with 422.',
  tags: ['Usage'],
  scope: 'usage:write',
  body: recordUsageEntryBodySchema,
  idempotent: true,
  responses: {
    201: {
      description: 'Entry recorded (or, with Idempotent-Replayed: true, the entry recorded by the first request with this key).',
      schema: recordUsageEntryResponseSchema,
      headers: { 'Idempotent-Replayed': { description: '"true" when this answer replays an earlier request with the same Idempotency-Key.' } },
    },
    400: { description: 'Malformed JSON or Idempotency-Key header.' },
    413: { description: 'Body too large.' },
    409: { description: '`/idempotency-in-progress`: a request with this Idempotency-Key is still running.' },
    415: { description: 'Body is not JSON.' },
    422: { description: 'A field failed validation (detail names it; errors lists every failure), or the Idempotency-Key was used with another body.' },
  },
} as const satisfies Operation;
