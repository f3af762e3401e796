export { createPartnerApp } from './app.js';
export type { PartnerAppDeps } from './deps.js';
export { loadPartnerApiConfig, partnerApiEnv, type PartnerApiConfig } from './config.js';
export { bookingPageCsp, serveBookingPage, type FindBookingPageFraming } from './booking-page-static.js';
export { createShopPages, type ShopPages } from './shop-pages.js';
