export * from './stop-on-signals.js';
export * from './pass-loop.js';
