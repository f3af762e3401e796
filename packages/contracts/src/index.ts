export * from './common.schemas.js';
export * from './operation.js';
export * from './events.catalog.js';
