// The OCTO operations, served by the partner API under /octo (their own error form: see apps/partner-api/src/octo).
import { cancelOctoBookingOperation } from './cancel-octo-booking.js';
import { checkOctoAvailabilityOperation } from './check-octo-availability.js';
import { confirmOctoBookingOperation } from './confirm-octo-booking.js';
import { deleteOctoBookingOperation } from './delete-octo-booking.js';
import { extendOctoBookingOperation } from './extend-octo-booking.js';
import { getOctoAvailabilityCalendarOperation } from './get-octo-availability-calendar.js';
import { getOctoBookingOperation } from './get-octo-booking.js';
import { getOctoProductOperation } from './get-octo-product.js';
import { getOctoSupplierOperation } from './get-octo-supplier.js';
import { listOctoBookingsOperation } from './list-octo-bookings.js';
import { listOctoProductsOperation } from './list-octo-products.js';
import { reserveOctoBookingOperation } from './reserve-octo-booking.js';
import { updateOctoBookingOperation } from './update-octo-booking.js';

export const OCTO_OPERATIONS = [
  getOctoSupplierOperation,
  listOctoProductsOperation,
  getOctoProductOperation,
  getOctoAvailabilityCalendarOperation,
  checkOctoAvailabilityOperation,
  reserveOctoBookingOperation,
  extendOctoBookingOperation,
  confirmOctoBookingOperation,
  updateOctoBookingOperation,
  cancelOctoBookingOperation,
  deleteOctoBookingOperation,
  getOctoBookingOperation,
  listOctoBookingsOperation,
] as const;
