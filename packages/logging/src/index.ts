export * from './logger.js';
export * from './redact-url.js';
