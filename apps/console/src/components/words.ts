// The API's values in words for the screen: a booking's status, typed by the vocabulary so none is left raw.
import type { BookingStatus } from '@backbone/contracts/browser';

export const STATUS_WORDS: Record<BookingStatus, string> = { on_hold: 'On hold', confirmed: 'Confirmed', cancelled: 'Cancelled', expired: 'Expired' };
