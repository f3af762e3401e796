// The booking page's manage link: the customer reads, cancels or moves the one booking its token opens, by the
// partner API's rules (until the activity's cutoff, the same 409s); the history names the customer.
import type { CancelShopBookingRequest, MoveShopBookingRequest, ShopBooking } from '@backbone/contracts';
import { cancelBooking } from './booking-lifecycle.js';
import { changeBooking } from './change-booking.js';
import { bookingOfToken, readShopBooking, type ShopCaller } from './shop-bookings.js';
import type { ShopDeps } from './shop-holds.js';

export async function getShopBooking(deps: ShopDeps, caller: ShopCaller, token: string): Promise<ShopBooking> {
  return readShopBooking(deps.pool, await bookingOfToken(deps.pool, caller.page, token));
}

export async function cancelShopBooking(deps: ShopDeps, caller: ShopCaller, token: string, request: CancelShopBookingRequest): Promise<ShopBooking> {
  const ref = await bookingOfToken(deps.pool, caller.page, token);
  await cancelBooking(deps, ref, { ...(request.Reason ? { Reason: request.Reason } : {}) }, { kind: 'customer' });
  return readShopBooking(deps.pool, ref);
}

export async function moveShopBooking(deps: ShopDeps, caller: ShopCaller, token: string, request: MoveShopBookingRequest): Promise<ShopBooking> {
  const ref = await bookingOfToken(deps.pool, caller.page, token);
  await changeBooking(deps, ref, { move: { date: request.Date, time: request.Time } }, { kind: 'customer' });
  return readShopBooking(deps.pool, ref);
}
