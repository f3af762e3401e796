export { createUsageApp, type UsageAppDeps } from './app.js';
export { loadUsageApiConfig, usageApiEnv, type UsageApiConfig } from './config.js';
