// GET /api/v2/usage/meters: the summary of a period in the account's (or the given) time zone, optionally with
// a per-day series. One statement over the rollups and the raw edges answers it.
import { getUsageSummary, type GetUsageSummaryResponse } from '@backbone/contracts';
import { sumUsageByDay, sumUsageOverPeriod } from '@backbone/db';
import { assembleUsageSummary, dailyReadRanges, localDaysOf, periodReadPlan, resolveSummaryPeriod } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { UsageAppDeps } from '../deps.js';

export function mountGetUsageSummary(routes: OperationRoutes, deps: UsageAppDeps): void {
  mountOperation(routes, deps, getUsageSummary, async ({ query, auth }) => {
    const perDay = query.granularity === 'day';
    const period = resolveSummaryPeriod({ from: query.from, to: query.to, tz: query.tz, accountTimeZone: auth.accountTimeZone, perDay });
    let response: GetUsageSummaryResponse;
    if (perDay) {
      const days = localDaysOf(period);
      response = { data: assembleUsageSummary(period, await sumUsageByDay(deps.pool, auth.accountId, dailyReadRanges(days)), days) };
    } else {
      response = { data: assembleUsageSummary(period, await sumUsageOverPeriod(deps.pool, auth.accountId, periodReadPlan(period)), null) };
    }
    return { status: 200, body: response };
  });
}
