// Summarise usage over a period in the account's (or the given) time zone, optionally with a per-day series: the
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

export async function summariseUsage(uow: { pool: Pool }, request: SummaryRequest): Promise<UsageSummary> {
  const period = resolveSummaryPeriod(request);
  if (!request.perDay) return assembleUsageSummary(period, await sumUsageOverPeriod(uow.pool, request.accountId, periodReadPlan(period)), null);
  const days = localDaysOf(period);
  return assembleUsageSummary(period, await sumUsageByDay(uow.pool, request.accountId, dailyReadRanges(days)), days);
}
