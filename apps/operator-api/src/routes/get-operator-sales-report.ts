// GET /api/v2/operator/reports/sales: the sales report of a range of slot dates or of booking days.
import { getOperatorSalesReportOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getOperatorSalesReport } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorSalesReport(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorSalesReportOperation, async ({ query, auth }) => ({
    status: 200,
    body: await getOperatorSalesReport(deps, { accountId: auth.accountId, from: query.From, to: query.To, by: query.By }),
    headers: { 'Cache-Control': 'no-store' },
  }));
}
