// The file store in an S3-compatible bucket (FILE_STORE=s3://<bucket>/<prefix>), through the AWS SDK's S3 client.
// PutObject with the body streamed and its length known: S3 creates the object only when the whole body arrived, and
// answers 200 once it is stored durably, so nothing partial is ever visible under a key.
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { finished, Readable } from 'node:stream';
import { assertFileKey, type FileStore } from './file-store.js';

export interface S3FileStoreSettings {
  bucket: string;
  /** Prepended to every key ('' or ending in '/'). */
  prefix: string;
  region: string;
  /** An S3-compatible service's URL (MinIO, R2, ...); empty for AWS itself. */
  endpoint?: string;
  /** Path-style URLs (http://host/bucket/key), as most S3-compatible services want. */
  forcePathStyle: boolean;
  /** Static credentials; without them the SDK's own chain (instance role, web identity, ...) is used. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export function createS3FileStore(settings: S3FileStoreSettings, client?: S3Client): FileStore {
  const s3 =
    client ??
    new S3Client({
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      // A checksum trailer needs aws-chunked uploads, which several S3-compatible services do not take; the body's
      // SHA-256 is computed and recorded by the upload itself.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // The SDK's retry middleware writes a line to the console when a streamed body fails; the caller reports it.
      logger: { trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
    });
  const objectKey = (key: string) => {
    assertFileKey(key);
    return `${settings.prefix}${key}`;
  };
  return {
    description: `s3 ${settings.bucket}/${settings.prefix}`,
    async put(key, body, size, contentType) {
      // The SDK pipes the body into its request, and a pipe does not pass a failure on: without the abort, a body that
      // fails (the wrong type, a client gone) would leave the request waiting for the rest of its Content-Length.
      const abort = new AbortController();
      const failed = new Promise<never>((_resolve, reject) =>
        finished(body, (error) => {
          if (!error) return;
          abort.abort(error);
          reject(error);
        }),
      );
      failed.catch(() => undefined);
      const command = new PutObjectCommand({ Bucket: settings.bucket, Key: objectKey(key), Body: body, ContentLength: size, ContentType: contentType });
      await Promise.race([s3.send(command, { abortSignal: abort.signal }), failed]);
    },
    async get(key) {
      try {
        const { Body } = await s3.send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
        return Body instanceof Readable ? Body : null;
      } catch (error) {
        if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) return null;
        throw error;
      }
    },
    async delete(key) {
      await s3.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
    },
    // A PutObject that failed left nothing behind.
    removeLeftovers: () => Promise.resolve(0),
  };
}
