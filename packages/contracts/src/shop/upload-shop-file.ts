// POST /api/v2/shop/:Slug/holds/:Token/files: a file answer (a signed waiver, an ID photo) for a live hold, sent as the
// raw body into the same file store, with the same type sniffing and limits as the partner API's upload.
import type { Operation } from '../operation.js';
import { uploadedFileSchema } from '../partner/upload-file.js';
import { FILE_CONTENT_TYPES, MAX_FILE_BYTES } from '../partner/shared.schemas.js';
import { notFoundToken, shopRateLimited, shopTags, shopTokenParams } from './shared.schemas.js';

export const uploadShopFileOperation = {
  operationId: 'uploadShopFile',
  method: 'post',
  path: '/api/v2/shop/:Slug/holds/:Token/files',
  summary: 'Upload a file answer for a hold',
  description:
    'Public (no API key), for a live hold only. The file is the raw request body with its media type as Content-Type and its size as Content-Length (411 without). ' +
    'At most 10 MiB; its first bytes must be what Content-Type says (a PDF, JPEG, PNG or WebP; 415 otherwise). Send its FileID as the answer of a file question with the confirm. ' +
    'Only this hold can use it; unreferenced files are deleted after 24 hours.',
  tags: shopTags,
  auth: 'public',
  params: shopTokenParams,
  rawBody: { contentTypes: FILE_CONTENT_TYPES, maxBytes: MAX_FILE_BYTES, description: 'The file itself, exactly Content-Length bytes.' },
  responses: {
    201: { description: 'Stored.', schema: uploadedFileSchema },
    400: { description: 'Malformed Slug or Token, a body shorter than its Content-Length, or an empty body.' },
    404: notFoundToken,
    409: { description: '`/hold-expired`: the hold expired; `/invalid-transition`: the booking is no longer a hold.' },
    411: { description: 'No Content-Length (a chunked body).' },
    413: { description: '`/payload-too-large`: over 10 MiB; `/file-quota-exceeded`: the account has no room left.' },
    415: { description: 'Content-Type not one of the four, or the bytes are not of the declared type.' },
    429: shopRateLimited,
  },
} as const satisfies Operation;
