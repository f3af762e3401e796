// A key's rate limit: a burst of requests it may send at once and a rate per second over time (packages/http
// rate-limits.ts enforces it as a quota of `burst` requests per window of ceil(burst / perSecond) seconds).
import { ValidationError } from './errors.js';

export interface RateLimit {
  perSecond: number;
  burst: number;
}

/** Whether a limit can be enforced as documented: whole numbers of at least 1, the burst at least the rate per second. */
export function isEnforceableRateLimit(limit: RateLimit): boolean {
  const whole = (n: number) => Number.isInteger(n) && n >= 1;
  return whole(limit.perSecond) && whole(limit.burst) && limit.burst >= limit.perSecond;
}

/** Throws a ValidationError for a key's own limit that cannot be enforced. */
export function checkKeyRateLimit(limit: RateLimit): void {
  if (isEnforceableRateLimit(limit)) return;
  const field = Number.isInteger(limit.perSecond) && limit.perSecond >= 1 ? 'burst' : 'perSecond';
  throw new ValidationError([{ field, message: 'perSecond must be at least 1 and burst at least perSecond, both whole numbers.' }]);
}
