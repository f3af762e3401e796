export * from './app.js';
export * from './auth.js';
export * from './error-handler.js';
export * from './logger.js';
export * from './openapi.js';
export * from './problems.js';
export * from './route.js';
export * from './server.js';
