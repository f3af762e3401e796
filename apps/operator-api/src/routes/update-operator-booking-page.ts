// PATCH /api/v2/operator/booking-page: the owner changes the booking page (updateOperatorBookingPage).
import { updateOperatorBookingPageOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { updateOperatorBookingPage } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountUpdateOperatorBookingPage(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, updateOperatorBookingPageOperation, async ({ body, auth }) => ({
    status: 200,
    body: await updateOperatorBookingPage(deps, { accountId: auth.accountId, changes: body, actor: operatorActorOf(auth) }),
  }));
}
