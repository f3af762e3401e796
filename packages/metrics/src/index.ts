export * from './metrics.js';
export * from './metrics-server.js';
export * from './scrape-collectors.js';
