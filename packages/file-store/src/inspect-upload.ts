// Reads an upload on its way to the store: its first bytes tell its real type (the `file-type` package reads the magic
// numbers of hundreds of formats), and every byte is counted and hashed. Nothing is held but the first few KiB, so a
// 10 MiB upload costs the process about what one chunk does.
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes the type detection reads (file-type's own sample size). */
const SAMPLE_BYTES = 4100;

export interface InspectedUpload {
  /** The media type the first bytes show; undefined when they match no format file-type knows. */
  detectedType: string | undefined;
  size: number;
  sha256: string;
}

export interface UploadInspector extends Transform {
  /** What was read, once the stream has ended (call once). */
  readonly result: () => InspectedUpload;
}

/**
 * A pass-through that holds back the first SAMPLE_BYTES until it has read their type, then calls `checkType` with it
 * (undefined: no known format) before any byte goes on; `checkType` throwing (the wrong type) fails the stream, and
 * with it the store's write.
 */
export function inspectUpload(checkType: (detected: string | undefined) => void): UploadInspector {
  const hash = createHash('sha256');
  let size = 0;
  let detectedType: string | undefined;
  let held: Buffer[] | null = [];
  let heldBytes = 0;

  const release = async (stream: Transform): Promise<void> => {
    const head = Buffer.concat(held!);
    held = null;
    detectedType = (await fileTypeFromBuffer(head))?.mime;
    checkType(detectedType);
    stream.push(head);
  };

  const inspector = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      size += chunk.length;
      hash.update(chunk);
      if (held === null) {
        callback(null, chunk);
        return;
      }
      held.push(chunk);
      heldBytes += chunk.length;
      if (heldBytes < SAMPLE_BYTES) {
        callback();
        return;
      }
      release(this).then(() => callback(), callback);
    },
    flush(callback: TransformCallback) {
      if (held === null) {
        callback();
        return;
      }
      release(this).then(() => callback(), callback);
    },
  }) as UploadInspector;
  (inspector as { result: () => InspectedUpload }).result = () => ({ detectedType, size, sha256: hash.digest('hex') });
  return inspector;
}
