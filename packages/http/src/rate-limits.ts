// Per-key rate limits, shared on Redis by every process of every API (rate-limiter-flexible's RateLimiterRedis: one
// atomic script, so one round trip, per check; large quotas are reserved in chunks, see rate-limit-reserves.ts). A
// key's budget is a quota of `burst` requests per window of ceil(burst / perSecond) seconds: it may spend its burst
// at once, and over time gets about perSecond a second. A fixed window was chosen over a token bucket because it is
// exactly what the IETF draft's quota policy describes (`q` requests per `w` seconds), so the RateLimit headers tell
// a client the truth: `r` more now, all back in `t`. When Redis does not answer, requests are served (availability
// first), counted and logged, at most every 10 s.
import type { Response } from 'express';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { countRateLimitedRequest, countRateLimiterFailedOpen } from '@backbone/metrics';
import type { AuthContext } from './auth.js';
import { assertBudget, resolveBudgetsOnce, type RateLimitDefaults } from './rate-limit-budgets.js';
import { rateLimited, setRateLimitFields } from './rate-limit-fields.js';
import { createReserves, windowLimiters } from './rate-limit-reserves.js';

export { assertBudget, budgetOf, windowOf, type RateLimitBudget, type RateLimitDefaults, type RateLimitWindow } from './rate-limit-budgets.js';

/** The Redis keys of the budgets; a key id is a UUID, so environments sharing one Redis do not share budgets. */
export const RATE_LIMIT_KEY_PREFIX = 'backbone:rate-limit';

const WARN_EVERY_MS = 10_000;

export interface KeyRateLimiter {
  /**
   * Spends one request of the key's budget (keyed by its id) and sets the RateLimit-Policy and RateLimit headers on
   * `res`; throws the 429 problem when the budget is spent. Sets nothing and lets the request through when Redis does
   * not answer.
   */
  admit(keyId: string, auth: Pick<AuthContext, 'scopes' | 'rateLimit'>, res: Response): Promise<void>;
}

/**
 * The key's budget (rate-limit-budgets.ts), spent from what this process reserved of it on Redis
 * (rate-limit-reserves.ts), told in the RateLimit fields (rate-limit-fields.ts).
 */
export function createKeyRateLimiter(options: { redis: Redis; defaults: RateLimitDefaults; logger: Logger; keyPrefix?: string }): KeyRateLimiter {
  for (const kind of ['ota', 'usage', 'admin'] as const) assertBudget(kind, options.defaults[kind]);
  const resolve = resolveBudgetsOnce(options.defaults, windowLimiters(options.redis, options.keyPrefix ?? RATE_LIMIT_KEY_PREFIX));
  const reserves = createReserves(failedOpen(options.logger));

  return {
    async admit(keyId, auth, res) {
      const { budget, limiter } = resolve(auth);
      let reserve = reserves.current(keyId, limiter, Date.now());
      // A key known to have spent its quota in this window is refused without asking Redis again.
      if (!reserve || (reserve.left === 0 && reserve.counted < limiter.window.quota)) {
        const reserved = await reserves.reserveChunk(keyId, limiter);
        if (!reserved) return;
        reserve = reserved;
      }
      const resetSeconds = Math.max(1, Math.ceil((reserve.endsAt - Date.now()) / 1000));
      if (reserve.left > 0) {
        reserve.left--;
        setRateLimitFields(res, limiter.policy, Math.max(0, limiter.window.quota - reserve.counted + reserve.left), resetSeconds);
        return;
      }
      setRateLimitFields(res, limiter.policy, 0, resetSeconds);
      countRateLimitedRequest(budget.name);
      throw rateLimited(limiter.window, resetSeconds);
    },
  };
}

/**
 * The failed-open accounting: each request served because Redis did not answer is counted, and logged with how many
 * there were since the last warning, at most every WARN_EVERY_MS.
 */
function failedOpen(logger: Logger): (error: unknown) => void {
  let lastWarningAt = 0;
  let failedSinceWarning = 0;
  return (error) => {
    countRateLimiterFailedOpen();
    failedSinceWarning++;
    const now = Date.now();
    if (now - lastWarningAt < WARN_EVERY_MS) return;
    logger.warn(
      { err: error, requestsServedUnlimited: failedSinceWarning },
      'rate limits: Redis did not answer; requests are served without a limit until it does',
    );
    lastWarningAt = now;
    failedSinceWarning = 0;
  };
}

/**
 * The limiter's own Redis connection: a command that takes longer than `timeoutMs` fails (and the request is served),
 * and while the connection is down commands fail at once instead of waiting in ioredis's offline queue.
 */
export function createRateLimitRedis(redisUrl: string, options: { clientName: string; timeoutMs: number }): Redis {
  const redis = new Redis(redisUrl, {
    connectionName: options.clientName,
    commandTimeout: options.timeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // Checks issued in the same turn of the event loop leave in one write: under load that is most of them.
    enableAutoPipelining: true,
  });
  // The limiter counts and logs what fails; the connection's own errors would repeat that on every reconnect.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * A server's limiter from its configuration (packages/config rateLimitSettings), on a Redis connection of its own;
 * none when limits are switched off.
 */
export function openKeyRateLimiter(options: {
  settings: { enabled: boolean; redisTimeoutMs: number; defaults: RateLimitDefaults };
  redisUrl: string;
  logger: Logger;
  clientName: string;
}): { rateLimiter: KeyRateLimiter | undefined; close(): void } {
  if (!options.settings.enabled) return { rateLimiter: undefined, close: () => undefined };
  const redis = createRateLimitRedis(options.redisUrl, { clientName: options.clientName, timeoutMs: options.settings.redisTimeoutMs });
  return {
    rateLimiter: createKeyRateLimiter({ redis, defaults: options.settings.defaults, logger: options.logger }),
    close: () => redis.disconnect(),
  };
}
