// GET /api/v2/operator/usage: summariseUsage with the per-day series, as the usage API computes it.
import { getOperatorUsageOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { summariseUsage } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountGetOperatorUsage(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, getOperatorUsageOperation, async ({ query, auth }) => {
    const summary = await summariseUsage(deps, {
      accountId: auth.accountId,
      accountTimeZone: auth.accountTimeZone,
      from: query.From,
      to: query.To,
      tz: query.TimeZone,
      perDay: true,
    });
    return { status: 200, body: summary, headers: { 'Cache-Control': 'no-store' } };
  });
}
