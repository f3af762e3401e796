// The APIs' per-key rate limits as the bench runs them: on, with budgets far above any rate the bench's one key reaches,
// so that what the check costs is in every figure and no request is refused. RATE_LIMITS_OFF is for measuring that
// cost side by side (issue 12: at most 5% of the partner endpoints' throughput).
const UNREACHABLE = '1000000';

export const BENCH_RATE_LIMITS: Record<string, string> = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_OTA_PER_SECOND: UNREACHABLE,
  RATE_LIMIT_OTA_BURST: UNREACHABLE,
  RATE_LIMIT_USAGE_PER_SECOND: UNREACHABLE,
  RATE_LIMIT_USAGE_BURST: UNREACHABLE,
  RATE_LIMIT_ADMIN_PER_SECOND: UNREACHABLE,
  RATE_LIMIT_ADMIN_BURST: UNREACHABLE,
};

export const RATE_LIMITS_OFF: Record<string, string> = { RATE_LIMIT_ENABLED: 'false' };
