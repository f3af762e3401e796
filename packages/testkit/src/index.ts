export * from './fixtures.js';
export * from './infrastructure.js';
