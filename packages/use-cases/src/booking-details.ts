// A stored booking as the partner API answers it: the create's members plus its lifecycle. A hold whose expiry has
// passed is shown as expired, whether or not it was marked yet.
import type { BookingDetails } from '@backbone/contracts';
import type { BookingChange, BookingRecord } from '@backbone/db';
import { bookingPrice, effectiveStatus } from '@backbone/domain';

export function toBookingDetails(booking: BookingRecord): BookingDetails {
  return changeToBookingDetails({
    ...booking,
    status: effectiveStatus(booking.status, booking.expiresAt, booking.now),
    createdAt: booking.createdAt.toISOString(),
    expiresAt: booking.expiresAt?.toISOString() ?? null,
    cancelledAt: booking.cancelledAt?.toISOString() ?? null,
    updatedAt: booking.updatedAt.toISOString(),
  });
}

/** The answer from the sync feed's lean row (its instants already ISO text, its status the effective one). */
export function changeToBookingDetails(change: BookingChange): BookingDetails {
  return {
    Reference: change.reference,
    Status: change.status,
    ActivityID: change.activityId,
    Date: change.date,
    Time: change.time,
    Participants: change.participants,
    Customer: { Phone: null, ...change.customer },
    PaymentReference: change.paymentReference,
    Channel: change.channel,
    Price: bookingPrice(change),
    CreatedAt: change.createdAt,
    ExpiresAt: change.expiresAt,
    CancelledAt: change.cancelledAt,
    CancellationReason: change.cancellationReason,
    UpdatedAt: change.updatedAt,
    ...(change.test ? { Test: true as const } : {}),
  };
}
