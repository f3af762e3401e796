// GET /api/v2/usage/meters: the summary of a period in the account's (or the given) time zone, optionally with
// a per-day series. One statement over the rollups and the raw edges answers it.
import type { Router } from 'express';
import { getUsageSummary, type GetUsageSummaryResponse } from '@backbone/contracts';
import { sumUsage } from '@backbone/db';
import { assembleUsageSummary, localDaysOf, resolveSummaryPeriod, summaryRanges } from '@backbone/domain';
import { mountOperation } from '@backbone/http';
import type { UsageAppDeps } from '../app.js';

export function mountGetUsageSummary(router: Router, deps: UsageAppDeps): void {
  mountOperation(router, deps, getUsageSummary, async ({ query, auth }) => {
    const period = resolveSummaryPeriod({ from: query.from, to: query.to, tz: query.tz, accountTimeZone: auth.accountTimeZone });
    const days = query.granularity === 'day' ? localDaysOf(period) : null;
    const rows = await sumUsage(deps.pool, auth.accountId, summaryRanges(period, days), { perSlice: days !== null });
    const response: GetUsageSummaryResponse = { data: assembleUsageSummary(period, rows, days) };
    return { status: 200, body: response };
  });
}
