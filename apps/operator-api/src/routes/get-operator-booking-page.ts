// GET /api/v2/operator/booking-page: the account's booking page settings (owners and staff).
import { getOperatorBookingPageOperation } from '@backbone/contracts';
import { findBookingPageSettings } from '@backbone/db';
import { notFound, toOperatorBookingPage } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorBookingPage(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorBookingPageOperation, async ({ auth }) => {
    const page = await findBookingPageSettings(deps.pool, auth.accountId);
    if (!page) throw notFound('Account');
    return { status: 200, body: toOperatorBookingPage(page) };
  });
}
