export { createUsageApp } from './app.js';
export type { UsageAppDeps } from './deps.js';
export { loadUsageApiConfig, usageApiEnv, type UsageApiConfig } from './config.js';
