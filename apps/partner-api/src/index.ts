export { createPartnerApp, type PartnerAppDeps } from './app.js';
export { loadPartnerApiConfig, partnerApiEnv, type PartnerApiConfig } from './config.js';
