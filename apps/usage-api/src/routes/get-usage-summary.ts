// GET /api/v2/usage/meters: the summary of a period in the account's (or the given) time zone, optionally with a
// per-day series, from the getUsageSummary use case.
import { getUsageSummaryOperation, type GetUsageSummaryResponse } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { getUsageSummary } from '@backbone/use-cases';
import type { UsageAppDeps } from '../deps.js';

export function mountGetUsageSummary(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(routes, deps, getUsageSummaryOperation, async ({ query, auth }) => {
    const summary = await getUsageSummary(deps, {
      accountId: auth.accountId,
      accountTimeZone: auth.accountTimeZone,
      from: query.from,
      to: query.to,
      tz: query.tz,
      perDay: query.granularity === 'day',
    });
    const response: GetUsageSummaryResponse = { data: summary };
    return { status: 200, body: response };
  });
}
