export * from './pool.js';
export * from './migrate.js';
export * from './accounts.repository.js';
export * from './api-keys.repository.js';
export * from './idempotency.repository.js';
export * from './usage.repository.js';
export * from './usage-writer.js';
export * from './outbox.repository.js';
