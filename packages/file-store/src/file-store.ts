// Where uploaded files' bytes live: a directory (the embedded default, under npm start's .data/files) or an
// S3-compatible bucket. The database says whose a file is and what it is; the store only keeps bytes under a key.
import type { Readable } from 'node:stream';

export interface FileStore {
  /** 'directory <path>' or 's3 <bucket>/<prefix>', for logs. */
  readonly description: string;
  /**
   * Stores the bytes of `body` (exactly `size` of them) under `key`. Resolves once they are durable (fsync, or the
   * bucket's own guarantee); when `body` fails or the write does, rejects and leaves nothing under `key`.
   */
  put(key: string, body: Readable, size: number, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Readable | null>;
  /** Removes `key`; a key with nothing under it is fine. */
  delete(key: string): Promise<void>;
  /** Removes what uploads cut off by a crash left behind (partial temporary files) older than `olderThanMs`. */
  removeLeftovers(olderThanMs: number): Promise<number>;
}

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A file's key: `<account id>/<file id>`, so that one account's files sit together. */
export function fileKey(accountId: string, fileId: string): string {
  const key = `${accountId.toLowerCase()}/${fileId.toLowerCase()}`;
  if (!KEY.test(key)) throw new Error(`not a file key: ${key}`);
  return key;
}

/** Keys reach the stores from this module only; a store refuses anything else (no path may climb out of its root). */
export function assertFileKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`not a file key: ${key}`);
}
