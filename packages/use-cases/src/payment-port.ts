// How a booking page's order is paid: the confirm asks the port before it books, so that a payment provider can be
// added later without touching the booking rules. Today the customer pays at the venue: nothing is taken online.
export interface PaymentOrder {
  accountId: string;
  reference: string;
  /** The total in minor units of `currency`, at the price the hold recorded. */
  amountMinor: number;
  currency: string;
}

export interface PaymentPort {
  /** What the page tells the customer (the page's PaymentMethod). */
  readonly method: 'pay_at_venue';
  /**
   * Settles the order before the booking is confirmed: answers the payment reference to store with the booking (null
   * when nothing was paid online), or throws when the payment failed (nothing is booked then).
   */
  settle(order: PaymentOrder): Promise<{ paymentReference: string | null }>;
}

export const payAtVenue: PaymentPort = {
  method: 'pay_at_venue',
  settle: () => Promise.resolve({ paymentReference: null }),
};
