// FILE_STORE as the apps read it: `s3://<bucket>/<prefix>` for a bucket (with the FILE_STORE_S3_* settings), anything
// else a directory (relative to the working directory).
import { createDirectoryFileStore } from './directory-store.js';
import type { FileStore } from './file-store.js';
import { createS3FileStore } from './s3-store.js';

export interface FileStoreSettings {
  FILE_STORE: string;
  FILE_STORE_S3_ENDPOINT: string;
  FILE_STORE_S3_REGION: string;
  FILE_STORE_S3_FORCE_PATH_STYLE: boolean;
  FILE_STORE_S3_ACCESS_KEY_ID: string;
  FILE_STORE_S3_SECRET_ACCESS_KEY: string;
}

const S3_URL = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;

export function openFileStore(settings: FileStoreSettings): FileStore {
  if (!settings.FILE_STORE.startsWith('s3://')) return createDirectoryFileStore(settings.FILE_STORE);
  const match = S3_URL.exec(settings.FILE_STORE);
  if (!match) throw new Error(`FILE_STORE ${settings.FILE_STORE} is not s3://<bucket>/<prefix>`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  const { FILE_STORE_S3_ACCESS_KEY_ID: accessKeyId, FILE_STORE_S3_SECRET_ACCESS_KEY: secretAccessKey } = settings;
  return createS3FileStore({
    bucket: match[1]!,
    prefix: prefix ? `${prefix}/` : '',
    region: settings.FILE_STORE_S3_REGION,
    forcePathStyle: settings.FILE_STORE_S3_FORCE_PATH_STYLE,
    ...(settings.FILE_STORE_S3_ENDPOINT ? { endpoint: settings.FILE_STORE_S3_ENDPOINT } : {}),
    ...(accessKeyId && secretAccessKey ? { credentials: { accessKeyId, secretAccessKey } } : {}),
  });
}
