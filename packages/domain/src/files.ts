// Files uploaded for waiver answers (by partners, customers on the booking page, the desk): what an upload may declare (type, size, name), what its bytes must turn
// out to be, and how an answer may reference one. The bytes themselves are the file store's; these are the rules.
import { FILE_CONTENT_TYPES, MAX_FILE_BYTES, type FileContentType } from '@backbone/contracts';
import { DomainError } from './errors.js';

export { FILE_CONTENT_TYPES, MAX_FILE_BYTES, type FileContentType };

/** How long an upload waits for a booking to reference it before it is deleted. */
export const UNREFERENCED_FILE_TTL_HOURS = 24;

/**
 * Bytes of unfinished uploads one partner may have at a time: a tenth of the account's quota, and at least one file of
 * the largest size (or the whole quota when that is smaller). An upload holds its share of the quota from its first
 * byte, so without this a partner that starts uploads and never finishes them takes the room of every other partner.
 */
export function uploadsInProgressLimit(quotaBytes: number): number {
  return Math.max(Math.min(quotaBytes, MAX_FILE_BYTES), Math.floor(quotaBytes / 10));
}

const EXTENSIONS: Record<FileContentType, string> = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp' };

export function isFileContentType(value: string): value is FileContentType {
  return (FILE_CONTENT_TYPES as readonly string[]).includes(value);
}

/** What the client declared in its headers, before a byte of the body is read. */
export function checkUploadDeclaration(contentType: string | undefined, length: number): FileContentType {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!isFileContentType(type)) {
    const multipart = type.startsWith('multipart/') ? ' Send the file itself as the body, not a multipart form.' : '';
    throw new DomainError('unsupported-media-type', `Content-Type must be one of ${FILE_CONTENT_TYPES.join(', ')}.${multipart}`);
  }
  if (length === 0) throw new DomainError('invalid-request', 'The file is empty (Content-Length: 0).');
  if (length > MAX_FILE_BYTES) {
    throw new DomainError('payload-too-large', `The file is ${length} bytes; at most ${MAX_FILE_BYTES} (10 MiB) are accepted.`, { MaxBytes: MAX_FILE_BYTES });
  }
  return type;
}

/**
 * The bytes must be what the header said: `detected` is the media type read from the file's first bytes (its magic
 * number), undefined when they match no known format. A renamed executable, or a PNG sent as image/jpeg, is refused.
 * An animated PNG is a PNG.
 */
export function checkDetectedType(declared: FileContentType, detected: string | undefined): void {
  if (detected === declared || (detected === 'image/apng' && declared === 'image/png')) return;
  const what = detected ? `a ${detected} file` : 'not a PDF, JPEG, PNG or WebP file';
  throw new DomainError('unsupported-media-type', `The body is ${what}, not ${declared} as Content-Type says.`, { DetectedType: detected ?? null });
}

/** The body ended at `received` bytes: it must be all that Content-Length announced. */
export function checkReceivedLength(declared: number, received: number): void {
  if (received !== declared) {
    throw new DomainError('invalid-request', `The body has ${received} bytes, but Content-Length says ${declared}.`);
  }
}

// Control characters, and the bidirectional overrides that make "gpj.exe" read as "exe.jpg".
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The name the file is kept and offered under: the last path segment of what the client sent, without control or
 * bidirectional-override characters and unpaired surrogates, at most 200 characters; 'upload.<ext>' when nothing
 * is left.
 */
export function uploadFileName(sent: string | undefined, type: FileContentType): string {
  const lastSegment = (sent ?? '').split(/[/\\]/).pop() ?? '';
  const cleaned = lastSegment.replace(LONE_SURROGATE, '').replace(UNSAFE, '').replace(/\s+/g, ' ').trim();
  const name = [...cleaned].slice(0, 200).join('').trim();
  return name === '' || name === '.' || name === '..' ? `upload.${EXTENSIONS[type]}` : name;
}

/** A stored file as an answer may reference it. */
export interface AnswerFile {
  id: string;
  name: string;
  contentType: FileContentType;
  size: number;
  /** The booking that references it already, or null. */
  bookingId: number | null;
}

/**
 * Whose uploads an answer may reference: the partner's own (partnerId); for an existing booking (id) the files uploaded
 * for its hold on the booking page and those it keeps already; and when the account's operator sends the answer (the
 * desk's sale or edit), the files the account's desk uploaded. The desk's files thus answer only the account's bookings,
 * and never a partner's or the booking page's new answer.
 */
export interface AnswerFileOwner {
  accountId: string;
  partnerId: string | null;
  id?: number | undefined;
  operator: boolean;
}

/** The media types a file question accepts: its Options, or all four when it lists none. */
export function acceptedFileTypes(options: readonly string[]): readonly FileContentType[] {
  const listed = options.filter(isFileContentType);
  return listed.length > 0 ? listed : FILE_CONTENT_TYPES;
}
