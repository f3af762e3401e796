// Uploaded files: a partner's, a customer's (shop-files.ts) or the desk's upload (streamed from the request into the file store, its type read from its first
// bytes, counted against the account's quota), the operator's download, and the sweep of files nobody referenced.
// The row is written pending before the first byte is read and turns 'stored' only once the bytes are durable, so
// an upload cut off anywhere leaves nothing a booking could reference; a pending row a crash left behind is swept.
import { randomUUID } from 'node:crypto';
import { finished, type Readable } from 'node:stream';
import type { UploadedFile } from '@backbone/contracts';
import {
  ABANDONED_UPLOAD_AFTER_SECONDS,
  claimUnreferencedFiles,
  deleteClaimedFiles,
  discardFileUpload,
  findAccountFile,
  markFileStored,
  reserveFileUpload,
  type FileUploader,
  type Pool,
  type StoredFileRow,
} from '@backbone/db';
import {
  checkDetectedType,
  checkReceivedLength,
  checkUploadDeclaration,
  DomainError,
  notFound,
  UNREFERENCED_FILE_TTL_HOURS,
  uploadFileName,
  uploadsInProgressLimit,
} from '@backbone/domain';
import { fileKey, inspectUpload, type FileStore } from '@backbone/file-store';
import { UnavailableError } from './errors.js';

export interface FileDeps {
  pool: Pool;
  fileStore: FileStore;
  /** Bytes one account's files may take together (FILE_QUOTA_BYTES). */
  fileQuotaBytes: number;
}

export interface FileUpload {
  accountId: string;
  /** A partner's upload, a customer's for one hold of the booking page (shop-files.ts), or the desk's. */
  uploader: FileUploader;
  apiKeyId: string | null;
  /** The Content-Type header as sent. */
  contentType: string | undefined;
  /** Content-Length. */
  length: number;
  /** The file name from Content-Disposition, as sent. */
  fileName: string | undefined;
  /** The request body: exactly `length` bytes unless the client stops short. */
  body: Readable;
  /** Whether the client is still there to be answered (an upload nobody can learn the FileID of is undone at once). */
  clientConnected: () => boolean;
}

export async function uploadFile(deps: FileDeps, upload: FileUpload): Promise<UploadedFile> {
  const contentType = checkUploadDeclaration(upload.contentType, upload.length);
  // A client already gone (its connection cut while the key was checked) would take quota and a partial file for a
  // moment, only to have them undone: nothing is reserved for it.
  if (!upload.clientConnected()) throw new DomainError('invalid-request', 'The connection closed before the upload began; nothing was kept.');
  const id = randomUUID();
  const name = uploadFileName(upload.fileName, contentType);
  const inProgressLimitBytes = uploadsInProgressLimit(deps.fileQuotaBytes);
  const reserved = await reserveFileUpload(deps.pool, {
    id,
    accountId: upload.accountId,
    uploader: upload.uploader,
    apiKeyId: upload.apiKeyId,
    name,
    contentType,
    size: upload.length,
    quotaBytes: deps.fileQuotaBytes,
    inProgressLimitBytes,
    ttlHours: UNREFERENCED_FILE_TTL_HOURS,
  });
  if ('refused' in reserved && reserved.refused === 'uploads-in-progress') {
    throw new DomainError(
      'uploads-in-progress',
      `${UPLOADER_WORDS[uploaderKind(upload.uploader)]} unfinished uploads already take ${reserved.inProgressBytes} bytes; with this one they would pass ${inProgressLimitBytes}. Finish or cancel an upload, then send this one again.`,
      { InProgressLimitBytes: inProgressLimitBytes },
    );
  }
  if ('refused' in reserved) {
    throw new DomainError(
      'file-quota-exceeded',
      `The account's files would take more than its quota of ${deps.fileQuotaBytes} bytes: delete or use fewer files.`,
      {
        QuotaBytes: deps.fileQuotaBytes,
      },
    );
  }
  const key = fileKey(upload.accountId, id);
  // The first failure of the body itself (the wrong type, too few bytes, a client gone), apart from the store's own.
  let bodyFailure: Error | null = null;
  const inspector = inspectUpload((detected) => checkDetectedType(contentType, detected));
  const fail = (error: Error) => {
    bodyFailure ??= error;
    inspector.destroy(error);
  };
  inspector.once('error', (error) => (bodyFailure ??= error));
  // A body that ends before its Content-Length (the connection went, or was cut because more bytes than announced
  // followed) is destroyed without 'end', possibly already: too few bytes, whatever arrived.
  finished(upload.body, (error) => {
    if (error) fail(new DomainError('invalid-request', `The body ended before its Content-Length (${upload.length} bytes).`));
  });
  upload.body.pipe(inspector);
  try {
    await deps.fileStore.put(key, inspector, upload.length, contentType);
  } catch (error) {
    // The rest of a refused body is not wanted: the client gets its answer (the server drains what it still sends).
    upload.body.unpipe(inspector);
    await discard(deps, upload.accountId, id, key);
    const failure = bodyFailure as Error | null;
    if (failure instanceof DomainError) throw failure;
    if (failure) throw new DomainError('invalid-request', `The body could not be read to its Content-Length (${upload.length} bytes).`);
    throw new UnavailableError('The file store did not take the file; nothing was kept, send it again.', { cause: error });
  }
  const inspected = inspector.result();
  try {
    checkReceivedLength(upload.length, inspected.size);
  } catch (error) {
    await discard(deps, upload.accountId, id, key);
    throw error;
  }
  if (!upload.clientConnected()) {
    await discard(deps, upload.accountId, id, key);
    throw new DomainError('invalid-request', 'The connection closed before the upload could be answered; nothing was kept.');
  }
  await markFileStored(deps.pool, upload.accountId, id, inspected.sha256);
  return { FileID: id, Name: name, ContentType: contentType, Size: inspected.size, SHA256: inspected.sha256, ExpiresAt: reserved.expiresAt.toISOString() };
}

const uploaderKind = (uploader: FileUploader) => ('partnerId' in uploader ? 'partner' : 'holdBookingId' in uploader ? 'hold' : 'operator');
const UPLOADER_WORDS = { partner: "This partner's", hold: "This booking's", operator: "The desk's" } as const;

/**
 * A file the desk uploads for a waiver answer (a photo of a signed paper waiver, an ID scan): the account's, recorded
 * as its console user's (or admin key's), and only the account's operator can answer a booking with it.
 */
export function uploadOperatorFile(
  deps: FileDeps,
  caller: { accountId: string; userId: string | null; apiKeyId: string | null },
  upload: Omit<FileUpload, 'accountId' | 'uploader' | 'apiKeyId'>,
): Promise<UploadedFile> {
  return uploadFile(deps, { ...upload, accountId: caller.accountId, uploader: { operator: { userId: caller.userId } }, apiKeyId: caller.apiKeyId });
}

/** Undoes a failed upload: its bytes (if any reached the store), then its row and quota. */
async function discard(deps: FileDeps, accountId: string, id: string, key: string): Promise<void> {
  await deps.fileStore.delete(key).catch(() => undefined);
  await discardFileUpload(deps.pool, accountId, id);
}

/** A stored file of the account (any uploader's) and its bytes, for the operator's download; another account's file is a 404. */
export async function downloadOperatorFile(
  deps: { pool: Pool; fileStore: FileStore },
  accountId: string,
  fileId: string,
): Promise<{ file: StoredFileRow; body: Readable }> {
  const file = await findAccountFile(deps.pool, accountId, fileId.toLowerCase());
  if (!file) throw notFound('File');
  const body = await deps.fileStore.get(fileKey(accountId, file.id));
  if (!body) throw new Error(`file ${file.id} of account ${accountId} is recorded as stored but its bytes are missing from ${deps.fileStore.description}`);
  return { file, body };
}

/**
 * One pass of the sweeper of unreferenced files: claims up to `limit` files that no booking took within their 24
 * hours (and uploads a crash cut off), deletes their bytes, then their rows. Files a booking references are never
 * claimed. Answers how many were deleted.
 */
export async function sweepUnreferencedFiles(deps: { pool: Pool; fileStore: FileStore }, limit: number): Promise<{ deleted: number; leftovers: number }> {
  const claimed = await claimUnreferencedFiles(deps.pool, limit);
  for (const file of claimed) await deps.fileStore.delete(fileKey(file.accountId, file.id));
  const deleted = await deleteClaimedFiles(
    deps.pool,
    claimed.map((f) => f.id),
  );
  const leftovers = await deps.fileStore.removeLeftovers(ABANDONED_UPLOAD_AFTER_SECONDS * 1000);
  return { deleted, leftovers };
}
