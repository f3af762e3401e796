// The shop operations: the public API of the operators' booking pages, mounted by the partner API.
import { cancelShopBookingOperation } from './cancel-shop-booking.js';
import { confirmShopHoldOperation } from './confirm-shop-hold.js';
import { createShopHoldOperation } from './create-shop-hold.js';
import { getShopActivityOperation } from './get-shop-activity.js';
import { getShopBookingOperation } from './get-shop-booking.js';
import { getShopPageOperation } from './get-shop-page.js';
import { listShopDatesOperation } from './list-shop-dates.js';
import { listShopTimeslotsOperation } from './list-shop-timeslots.js';
import { moveShopBookingOperation } from './move-shop-booking.js';
import { releaseShopHoldOperation } from './release-shop-hold.js';
import { uploadShopFileOperation } from './upload-shop-file.js';
import { joinShopWaitlistOperation } from './join-shop-waitlist.js';
import { getShopWaitlistOfferOperation } from './get-shop-waitlist-offer.js';
import { claimShopWaitlistOfferOperation } from './claim-shop-waitlist-offer.js';

export const SHOP_OPERATIONS = [
  getShopPageOperation,
  getShopActivityOperation,
  listShopDatesOperation,
  listShopTimeslotsOperation,
  createShopHoldOperation,
  releaseShopHoldOperation,
  uploadShopFileOperation,
  confirmShopHoldOperation,
  getShopBookingOperation,
  cancelShopBookingOperation,
  moveShopBookingOperation,
  joinShopWaitlistOperation,
  getShopWaitlistOfferOperation,
  claimShopWaitlistOfferOperation,
] as const;
