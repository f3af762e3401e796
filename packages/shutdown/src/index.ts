export * from './stop-on-signals.js';
export * from './pass-loop.js';
export * from './start-worker.js';
