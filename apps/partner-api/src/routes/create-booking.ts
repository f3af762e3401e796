// POST /api/v2/ota/partner/booking: a partner's booking through the create-booking use case (422 for a request that
// does not fit the activity, 409 when the timeslot is unavailable or too full; safe to retry with an Idempotency-Key).
import { createBookingOperation } from '@backbone/contracts';
import { mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { createBooking } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';

export function mountCreateBooking(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, createBookingOperation, async ({ body, auth, idempotency }) => {
    const { value, replayed } = await createBooking(
      deps,
      {
        accountId: auth.accountId,
        apiKeyId: auth.keyId,
        channel: 'ota',
        activityId: body.ActivityID,
        date: body.Date,
        time: body.Time,
        participants: body.Participants,
        partnerId: auth.partnerId,
        test: auth.test,
        hold: body.Hold ? { minutes: body.Hold.Minutes } : null,
        customer: body.Customer ?? {},
        paymentReference: body.PaymentReference ?? null,
        answers: body.Answers,
      },
      idempotency,
    );
    return { status: 201, body: value, headers: replayHeaders(replayed) };
  });
}
