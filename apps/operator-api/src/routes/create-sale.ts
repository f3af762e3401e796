// POST /api/v2/operator/sales: a point-of-sale sale through the create-booking use case (channel pos).
import { createSaleOperation } from '@backbone/contracts';
import { mountOperation, replayHeaders, type OperationRoutes } from '@backbone/http';
import { createBooking } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCreateSale(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createSaleOperation, async ({ body, auth, idempotency }) => {
    const { value, replayed } = await createBooking(
      deps,
      {
        accountId: auth.accountId,
        apiKeyId: auth.keyId,
        partnerId: null,
        createdByUserId: auth.user?.id ?? null,
        hold: null,
        channel: 'pos',
        activityId: body.ActivityID,
        date: body.Date,
        time: body.Time,
        participants: body.Participants,
        customer: body.Customer,
        paymentReference: body.PaymentReference ?? null,
        answers: body.Answers,
      },
      idempotency,
    );
    return { status: 201, body: value, headers: replayHeaders(replayed) };
  });
}
