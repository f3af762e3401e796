export * from './database-faults.js';
export * from './fixtures.js';
export * from './infrastructure.js';
export * from './local-services.js';
export * from './partner.factories.js';
export * from './wait-for.js';
export * from './service-process.js';
export * from './sample-files.js';
