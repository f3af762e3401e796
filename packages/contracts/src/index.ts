export * from './common.schemas.js';
export * from './operation.js';
export * from './schema-validation.js';
export * from './events.catalog.js';
export * from './partner.operations.js';
export * from './usage.operations.js';
export * from './platform.operations.js';
