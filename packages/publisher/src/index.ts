export * from './publisher.js';
export * from './queues.js';
export * from './event-validation.js';
export * from './failed-jobs.js';
export * from './webhook-deliveries.js';
export * from './queue-owner.js';
export * from './key-revocations.js';
