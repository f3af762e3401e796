// The shop operations, one file each, and the schemas a booking page's client needs; browser-safe.
export {
  SHOP_SLUG_PATTERN,
  shopActivitySchema,
  shopBookingSchema,
  shopSlugSchema,
  shopTokenSchema,
  type ShopActivity,
  type ShopBooking,
} from './shared.schemas.js';
export * from './get-shop-page.js';
export * from './get-shop-activity.js';
export * from './list-shop-dates.js';
export * from './list-shop-timeslots.js';
export * from './create-shop-hold.js';
export * from './release-shop-hold.js';
export * from './upload-shop-file.js';
export * from './confirm-shop-hold.js';
export * from './get-shop-booking.js';
export * from './cancel-shop-booking.js';
export * from './move-shop-booking.js';
export * from './join-shop-waitlist.js';
export * from './get-shop-waitlist-offer.js';
export * from './claim-shop-waitlist-offer.js';
export * from './operations.js';
