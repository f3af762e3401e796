// POST /api/v2/ota/partner/files: a file for a waiver answer (a signed waiver, an ID photo), sent as the raw request
// body, checked against its declared type by its first bytes, kept for 24 hours unless a booking references it.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { FILE_CONTENT_TYPES, MAX_FILE_BYTES, partnerTags } from './shared.schemas.js';

export const uploadedFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['FileID', 'Name', 'ContentType', 'Size', 'SHA256', 'ExpiresAt'],
  properties: {
    FileID: { ...uuidSchema, description: "The file's id: send it as an answer's FileID." },
    Name: {
      type: 'string',
      description: "The file name from Content-Disposition (path and control characters removed), else 'upload' with the type's extension.",
    },
    ContentType: { type: 'string', enum: FILE_CONTENT_TYPES },
    Size: { type: 'integer', minimum: 1, maximum: MAX_FILE_BYTES, description: 'Bytes.' },
    SHA256: { type: 'string', pattern: '^[0-9a-f]{64}$', description: "Hex SHA-256 of the bytes as stored: compare it with the file's own." },
    ExpiresAt: {
      type: 'string',
      format: 'date-time',
      description: 'When the file is deleted unless a booking references it by then (24 hours after the upload). A referenced file stays with its booking.',
    },
  },
} as const;
export type UploadedFile = FromSchema<typeof uploadedFileSchema>;

export const uploadFileOperation = {
  operationId: 'uploadFile',
  method: 'post',
  path: '/api/v2/ota/partner/files',
  summary: 'Upload a file for a waiver answer',
  description:
    'The file is the raw request body (not multipart, not JSON), with its media type as Content-Type and its size as Content-Length (required; ' +
    'chunked bodies are refused with 411). At most 10 MiB. Its first bytes must be what Content-Type says (a PDF, JPEG, PNG or WebP; 415 otherwise). ' +
    'An optional file name comes from `Content-Disposition: attachment; filename="waiver.pdf"` (or `filename*` for non-ASCII names). ' +
    'The file is stored durably before the 201. Reference it within 24 hours as `{"QuestionID": …, "FileID": …}` in a booking\'s Answers ' +
    '(create, confirm, change), or it is deleted. Only the uploading partner can reference it; the operator downloads it from the console. ' +
    "Each account's files share a quota (5 GB by default; 413 /file-quota-exceeded beyond it); one partner's unfinished uploads may take a tenth of it " +
    '(429 /uploads-in-progress beyond, with Retry-After), so no partner holds the room of the others.',
  tags: partnerTags,
  scope: 'ota',
  rawBody: {
    contentTypes: FILE_CONTENT_TYPES,
    maxBytes: MAX_FILE_BYTES,
    description: 'The file itself, exactly Content-Length bytes.',
  },
  responses: {
    201: { description: 'Stored.', schema: uploadedFileSchema },
    400: { description: 'A body shorter than its Content-Length, an empty body (Content-Length: 0), or a Content-Disposition that cannot be read.' },
    411: { description: 'No Content-Length (a chunked body).' },
    413: {
      description: '`/payload-too-large`: Content-Length over 10 MiB (refused before the body is read); `/file-quota-exceeded`: the account has no room left.',
    },
    415: { description: 'Content-Type not one of the four, or the bytes are not of the declared type (a renamed .exe, a PNG sent as JPEG).' },
    429: {
      description:
        "`/uploads-in-progress`: the partner's unfinished uploads would take more than a tenth of the account's quota (at least 10 MiB) with this one; refused before the body is read, with Retry-After.",
      headers: { 'Retry-After': { description: 'Whole seconds to wait before sending it again.' } },
    },
  },
} as const satisfies Operation;
