// POST /api/v2/ota/partner/booking: checks the request against the activity (422), then reserves and records the
// booking with its outbox event atomically (409 when the slot is unavailable or too full). With an
// Idempotency-Key, the stored answer commits in the same transaction as the booking.
import { createBookingOperation } from '@backbone/contracts';
import { createBookingStore } from '@backbone/db';
import { createBooking } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';

export function mountCreateBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, createBookingOperation, async (ctx) => {
    const { body, auth } = ctx;
    const store = createBookingStore(
      deps.pool,
      ctx.idempotencyKey ? { beforeCommit: (client, booking) => ctx.recordResponse(client, { status: 201, body: booking }) } : {},
    );
    const booking = await createBooking(store, {
      accountId: auth.accountId,
      apiKeyId: auth.keyId,
      channel: 'ota',
      activityId: body.ActivityID,
      date: body.Date,
      time: body.Time,
      participants: body.Participants,
      customer: body.Customer,
      paymentReference: body.PaymentReference ?? null,
      answers: body.Answers,
    });
    return { status: 201, body: booking };
  });
}
