// A stored booking as the partner API answers it: the create's members plus its lifecycle. A hold whose expiry has
// passed is shown as expired, whether or not it was marked yet.
import type { BookingDetails } from '@backbone/contracts';
import type { BookingRecord } from '@backbone/db';
import { effectiveStatus } from '@backbone/domain';

export function toBookingDetails(booking: BookingRecord): BookingDetails {
  const status = effectiveStatus(booking.status, booking.expiresAt, booking.now);
  return {
    Reference: booking.reference,
    Status: status,
    ActivityID: booking.activityId,
    Date: booking.date,
    Time: booking.time,
    Participants: booking.participants,
    Customer: { Phone: null, ...booking.customer },
    PaymentReference: booking.paymentReference,
    Channel: booking.channel,
    CreatedAt: booking.createdAt.toISOString(),
    ExpiresAt: booking.expiresAt?.toISOString() ?? null,
    CancelledAt: booking.cancelledAt?.toISOString() ?? null,
    CancellationReason: booking.cancellationReason,
    UpdatedAt: booking.updatedAt.toISOString(),
  };
}
