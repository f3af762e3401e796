export * from './publisher.js';
