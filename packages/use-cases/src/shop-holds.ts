// The booking page's checkout: a hold while the customer fills in the form (createShopHold: the same reservation as
// every channel, never oversold, at most a few live holds per address), its release, and Book (confirmShopHold: the
// confirm of a partner's hold, through the payment port, with its order.completed event). Bookings are ordinary
// bookings of channel online with no partner; their price is the activity's when the hold was made.
import type { ConfirmShopHoldRequest, CreateShopHoldRequest, ShopBooking, ShopHold } from '@backbone/contracts';
import { insertBookingToken, type BookingRecord, type Db, type Pool } from '@backbone/db';
import { decideRelease, DomainError, ValidationError } from '@backbone/domain';
import { cancelBooking, confirmBooking } from './booking-lifecycle.js';
import { createBooking } from './create-booking.js';
import { recordOrderCompleted } from './order-completed.js';
import { payAtVenue, type PaymentPort } from './payment-port.js';
import { bookingOfToken, hashBookingToken, newBookingToken, readShopBooking, type ShopCaller } from './shop-bookings.js';

export interface ShopDeps {
  pool: Pool;
  /** How orders are paid; pay at the venue unless given. */
  payment?: PaymentPort;
}

/** Live holds one client address may have at once, over every page. */
export const MAX_LIVE_HOLDS_PER_ADDRESS = 5;

export async function createShopHold(deps: ShopDeps, caller: ShopCaller, request: CreateShopHoldRequest): Promise<ShopHold> {
  const token = newBookingToken();
  const { value } = await createBooking(
    deps,
    {
      accountId: caller.page.accountId,
      apiKeyId: null,
      partnerId: null,
      hold: { minutes: caller.page.holdMinutes },
      channel: 'online',
      activityId: request.ActivityID,
      date: request.Date,
      time: request.Time,
      participants: request.Participants,
      customer: {},
      paymentReference: null,
      answers: undefined,
    },
    null,
    {
      // The token commits with the hold, and the address's limit is checked under its lock in the same transaction:
      // a refused hold takes no places.
      withinBooking: async (tx, booking) => {
        const recorded = await insertBookingToken(tx, {
          accountId: caller.page.accountId,
          reference: booking.Reference,
          tokenHash: hashBookingToken(token),
          clientAddress: caller.clientAddress,
          maxLiveHolds: MAX_LIVE_HOLDS_PER_ADDRESS,
        });
        if (!recorded)
          throw new DomainError(
            'too-many-holds',
            `This address already holds places on ${MAX_LIVE_HOLDS_PER_ADDRESS} bookings: book or release one of them, or wait until one expires.`,
          );
      },
    },
  );
  const booking = await readShopBooking(deps.pool, { owner: { accountId: caller.page.accountId, partnerId: null }, reference: value.Reference });
  return { Token: token, Booking: booking };
}

export async function releaseShopHold(deps: ShopDeps, caller: ShopCaller, token: string): Promise<void> {
  const ref = await bookingOfToken(deps.pool, caller.page, token);
  await cancelBooking(deps, ref, { Reason: 'Released on the booking page' }, { kind: 'customer' }, null, { decide: decideRelease });
}

export async function confirmShopHold(
  deps: ShopDeps,
  caller: ShopCaller,
  token: string,
  request: ConfirmShopHoldRequest,
  /** Writes that commit with the confirm (a waitlist offer's claim); the hold the token opens is the one confirmed. */
  options: { afterConfirm?: (tx: Db, booking: BookingRecord) => Promise<void> } = {},
): Promise<ShopBooking> {
  if (caller.page.terms !== '' && request.AcceptTerms !== true) {
    throw new ValidationError([{ field: 'AcceptTerms', message: "AcceptTerms must be true: the customer accepts the operator's terms to book." }]);
  }
  const ref = await bookingOfToken(deps.pool, caller.page, token);
  const held = await readShopBooking(deps.pool, ref);
  const payment = await (deps.payment ?? payAtVenue).settle({
    accountId: caller.page.accountId,
    reference: held.Reference,
    amountMinor: held.Price.TotalAmount,
    currency: held.Price.Currency,
  });
  await confirmBooking(
    deps,
    ref,
    {
      Customer: request.Customer,
      ...(request.Answers ? { Answers: request.Answers } : {}),
      ...(payment.paymentReference ? { PaymentReference: payment.paymentReference } : {}),
    },
    { kind: 'customer' },
    null,
    {
      afterConfirm: async (tx, booking) => {
        await recordOrderCompleted(tx, booking);
        await options.afterConfirm?.(tx, booking);
      },
    },
  );
  return readShopBooking(deps.pool, ref);
}
