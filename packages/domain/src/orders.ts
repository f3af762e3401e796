// Which bookings are orders the operator's own checkout completed: those of the booking page (channel online) and of
// the point of sale. Each, once confirmed, is one `order.completed` platform event (the built-in meter
// order-completed), whose basket is the booking's reference. A partner's booking (the partner API, OCTO) is not: the
// partner's checkout completed that purchase.
import type { BookingChannel } from '@backbone/contracts';

export function completesOrder(channel: BookingChannel): boolean {
  return channel === 'online' || channel === 'pos';
}

/** The order.completed event of a confirmed booking of the operator's checkout; null for any other booking. */
export function orderCompletedEvent(booking: {
  reference: string;
  channel: BookingChannel;
}): { type: 'order.completed'; payload: { BasketID: string } } | null {
  return completesOrder(booking.channel) ? { type: 'order.completed', payload: { BasketID: booking.reference } } : null;
}
