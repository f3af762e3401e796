// GET /api/v2/operator/files/{FileID}: a file uploaded for a waiver answer, as an attachment.
import { uuidSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { FILE_CONTENT_TYPES } from '../partner/shared.schemas.js';
import { operatorTags } from './shared.schemas.js';

const fileIdParams = {
  type: 'object',
  required: ['FileID'],
  properties: { FileID: { ...uuidSchema, 'x-message': 'must be a UUID in canonical 8-4-4-4-12 hex form.' } },
} as const;

export const downloadOperatorFileOperation = {
  operationId: 'downloadOperatorFile',
  method: 'get',
  path: '/api/v2/operator/files/:FileID',
  summary: 'Download a file of a waiver answer',
  description:
    "The bytes of a file uploaded for this account's waiver answers (by a partner, a customer on the booking page or the desk; a booking's file answers name it in File.FileID), always as a download " +
    '(Content-Disposition: attachment), never rendered by the browser in the console (X-Content-Type-Options: nosniff, Content-Security-Policy: sandbox). ' +
    "Another account's file, or one deleted because no booking took it within 24 hours, is a 404.",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: fileIdParams,
  responses: {
    200: {
      description: 'The file, with its type as Content-Type and its name in Content-Disposition.',
      contentTypes: FILE_CONTENT_TYPES,
      headers: {
        'Content-Disposition': { description: 'attachment; filename="…"; filename*=UTF-8\'\'…' },
        'X-Content-Type-Options': { description: 'nosniff' },
        'Content-Security-Policy': { description: 'sandbox' },
      },
    },
    400: { description: 'FileID is not a UUID.' },
    404: { description: 'No such file in this account.' },
  },
} as const satisfies Operation;
