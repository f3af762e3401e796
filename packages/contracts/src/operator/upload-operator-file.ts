// POST /api/v2/operator/files: a file the desk uploads for a waiver answer (a photo of a signed paper waiver, an ID
// scan), sent as the raw body into the same file store, with the same type sniffing and limits as the partner API's.
import type { Operation } from '../operation.js';
import { uploadedFileSchema } from '../partner/upload-file.js';
import { FILE_CONTENT_TYPES, MAX_FILE_BYTES } from '../partner/shared.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const uploadOperatorFileOperation = {
  operationId: 'uploadOperatorFile',
  method: 'post',
  path: '/api/v2/operator/files',
  summary: 'Upload a file for a waiver answer at the desk',
  description:
    'The file is the raw request body (not multipart, not JSON), with its media type as Content-Type and its size as Content-Length (411 without, chunked included). ' +
    'At most 10 MiB; its first bytes must be what Content-Type says (a PDF, JPEG, PNG or WebP; 415 otherwise). ' +
    "An optional file name comes from `Content-Disposition: attachment; filename*=UTF-8''…`. The file is stored durably before the 201. " +
    "Send its FileID as a file question's answer in `createSale` or `changeOperatorBooking` within 24 hours, or it is deleted. " +
    "It is the account's: only this account's console users and admin keys can answer a booking with it (any of the account's bookings); " +
    "partners and the booking page cannot, and another account's session gets 404 for it. Counted against the account's file quota (413 /file-quota-exceeded).",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  rawBody: { contentTypes: FILE_CONTENT_TYPES, maxBytes: MAX_FILE_BYTES, description: 'The file itself, exactly Content-Length bytes.' },
  responses: {
    201: { description: 'Stored.', schema: uploadedFileSchema },
    400: { description: 'A body shorter than its Content-Length, an empty body (Content-Length: 0), or a Content-Disposition that cannot be read.' },
    411: { description: 'No Content-Length (a chunked body).' },
    413: { description: '`/payload-too-large`: over 10 MiB (refused before the body is read); `/file-quota-exceeded`: the account has no room left.' },
    415: { description: 'Content-Type not one of the four, or the bytes are not of the declared type (a renamed .exe, a PNG sent as JPEG).' },
    429: {
      description: "`/uploads-in-progress`: the desk's unfinished uploads would take more than a tenth of the account's quota (at least 10 MiB) with this one.",
      headers: { 'Retry-After': { description: 'Whole seconds to wait before sending it again.' } },
    },
  },
} as const satisfies Operation;
