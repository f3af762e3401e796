export * from './stop-on-signals.js';
