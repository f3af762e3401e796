export * from './file-store.js';
export * from './directory-store.js';
export * from './s3-store.js';
export * from './inspect-upload.js';
export * from './open-file-store.js';
