// What the booking page's use cases share: the customer's token (256 random bits; only its SHA-256 is stored), the
// booking a token opens within the page's account (that one alone), and the booking as its customer sees it.
import { createHash, randomBytes } from 'node:crypto';
import type { ShopBooking } from '@backbone/contracts';
import { findBooking, findBookingByToken, insertMailBookingTokens, type BookingPage, type BookingRecord, type Db } from '@backbone/db';
import { bookingPrice, effectiveStatus, notFound } from '@backbone/domain';
import type { BookingRef } from './booking-lifecycle.js';

/** The page a shop request came in through and who sent it. */
export interface ShopCaller {
  page: Pick<BookingPage, 'accountId' | 'holdMinutes' | 'terms'>;
  /** The client's address (the gateway's X-Forwarded-For, believed from it alone): holds are counted per address. */
  clientAddress: string;
}

export const newBookingToken = (): string => randomBytes(32).toString('base64url');

export const hashBookingToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * New tokens for the manage links of e-mails of bookings (the mail worker's, one per message, answered in order), committed
 * before they are answered so that no message carries a link that opens nothing. Only their hashes are kept: each clear
 * token leaves in its message alone.
 */
export async function issueMailManageTokens(db: Db, bookings: readonly { accountId: string; bookingId: number }[]): Promise<string[]> {
  const tokens = bookings.map(() => newBookingToken());
  await insertMailBookingTokens(
    db,
    bookings.map((booking, i) => ({ accountId: booking.accountId, bookingId: booking.bookingId, tokenHash: hashBookingToken(tokens[i]!) })),
  );
  return tokens;
}

/** The booking the token opens in the page's account; 404 for any other token (unknown, of another page, malformed). */
export async function bookingOfToken(db: Db, page: ShopCaller['page'], token: string): Promise<BookingRef & { bookingId: number }> {
  const found = await findBookingByToken(db, page.accountId, hashBookingToken(token));
  if (!found) throw notFound('Booking');
  return { owner: { accountId: page.accountId, partnerId: null }, reference: found.reference, bookingId: found.id };
}

export async function readShopBooking(db: Db, ref: BookingRef): Promise<ShopBooking> {
  const booking = await findBooking(db, ref.owner, ref.reference);
  if (!booking) throw notFound('Booking');
  return toShopBooking(booking);
}

export function toShopBooking(booking: BookingRecord): ShopBooking {
  const status = effectiveStatus(booking.status, booking.expiresAt, booking.now);
  return {
    Reference: booking.reference,
    Status: status,
    ActivityID: booking.activityId,
    ActivityName: booking.activityName,
    Date: booking.date,
    Time: booking.time,
    StartsAt: booking.startsAt,
    TimeZone: booking.timeZone,
    Participants: booking.participants,
    Customer: { Phone: null, ...booking.customer },
    Price: bookingPrice(booking),
    ExpiresAt: status === 'on_hold' ? (booking.expiresAt?.toISOString() ?? null) : null,
    ChangeableUntil: new Date(booking.startsAtInstant.getTime() - booking.cancellationCutoffMinutes * 60_000).toISOString(),
    CreatedAt: booking.createdAt.toISOString(),
  };
}
