export * from './destination-guard.js';
export * from './secret.js';
