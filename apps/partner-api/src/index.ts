export { createPartnerApp } from './app.js';
export type { PartnerAppDeps } from './deps.js';
export { loadPartnerApiConfig, partnerApiEnv, type PartnerApiConfig } from './config.js';
export { createShopPages, type ShopPages } from './shop-pages.js';
