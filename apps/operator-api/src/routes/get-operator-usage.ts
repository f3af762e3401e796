// GET /api/v2/operator/usage: the usage summary with its per-day series, as the usage API computes it.
import { getOperatorUsageOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getOperatorUsage } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorUsage(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorUsageOperation, async ({ query, auth }) => {
    const summary = await getOperatorUsage(deps, {
      accountId: auth.accountId,
      accountTimeZone: auth.accountTimeZone,
      from: query.From,
      to: query.To,
      tz: query.TimeZone,
    });
    return { status: 200, body: summary, headers: { 'Cache-Control': 'no-store' } };
  });
}
