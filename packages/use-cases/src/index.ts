export * from './errors.js';
export * from './idempotency.js';
export * from './create-booking.js';
export * from './record-usage-entry.js';
export * from './record-usage-entries.js';
export * from './summarise-usage.js';
export * from './publish-platform-event.js';
