// The API's values in words for the screen: a booking's status (typed by the vocabulary so none is left raw), counts
// with their noun in the right number.
import type { BookingStatus, PaymentMethod } from '@backbone/contracts/browser';

export const STATUS_WORDS: Record<BookingStatus, string> = { on_hold: 'On hold', confirmed: 'Confirmed', cancelled: 'Cancelled', expired: 'Expired' };

export const PAYMENT_WORDS: Record<PaymentMethod, string> = { cash: 'Cash', card: 'Card', other: 'Other' };

/** "1 booking", "2 bookings"; `many` for nouns that do not just take an s. */
export function countOf(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
