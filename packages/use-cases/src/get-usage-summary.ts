// The usage summary of the usage API and the console's usage page: usage over a period in the account's (or the given) time zone, optionally with a per-day series: the
// domain plans which rollups and raw edges answer the period, and one statement sums them.
import type { UsageSummary } from '@backbone/contracts';
import { sumUsageByDay, sumUsageOverPeriod, type Pool } from '@backbone/db';
import { assembleUsageSummary, dailyReadRanges, localDaysOf, periodReadPlan, resolveSummaryPeriod } from '@backbone/domain';

export interface SummaryRequest {
  accountId: string;
  accountTimeZone: string;
  from: string;
  to: string;
  tz?: string | undefined;
  perDay: boolean;
}

export async function getUsageSummary(deps: { pool: Pool }, request: SummaryRequest): Promise<UsageSummary> {
  const period = resolveSummaryPeriod(request);
  if (!request.perDay) return assembleUsageSummary(period, await sumUsageOverPeriod(deps.pool, request.accountId, periodReadPlan(period)), null);
  const days = localDaysOf(period);
  return assembleUsageSummary(period, await sumUsageByDay(deps.pool, request.accountId, dailyReadRanges(days)), days);
}

/** The console's usage page: the same summary, always with its per-day series. */
export function getOperatorUsage(deps: { pool: Pool }, request: Omit<SummaryRequest, 'perDay'>): Promise<UsageSummary> {
  return getUsageSummary(deps, { ...request, perDay: true });
}
