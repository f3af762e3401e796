// The order.completed platform event of a booking the operator's own checkout completed (the booking page's confirm, a
// point-of-sale sale), written to the outbox in the booking's transaction: it exists exactly when the booking does,
// and the booking worker's relay publishes it to the platform events queue (docs/booking-page.md).
import { randomUUID } from 'node:crypto';
import type { BookingChannel } from '@backbone/contracts';
import { insertOutboxEvent, type Db } from '@backbone/db';
import { orderCompletedEvent } from '@backbone/domain';

export async function recordOrderCompleted(tx: Db, booking: { accountId: string; reference: string; channel: BookingChannel }): Promise<void> {
  const event = orderCompletedEvent(booking);
  if (event) await insertOutboxEvent(tx, { accountId: booking.accountId, eventId: randomUUID(), type: event.type, payload: event.payload });
}
