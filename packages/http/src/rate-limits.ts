// Per-key rate limits, shared on Redis by every process of every API (rate-limiter-flexible's RateLimiterRedis: one
// atomic script, so one round trip, per check; large quotas are reserved in chunks, see Reserve). A key's budget is a
// quota of `burst` requests per window of ceil(burst / perSecond) seconds: it may spend its burst at once, and over
// time gets about perSecond a second. A fixed window was chosen over a token bucket because it is exactly what the
// IETF draft's quota policy describes (`q` requests per `w` seconds), so the RateLimit headers tell a client the
// truth: `r` more now, all back in `t`. When Redis does not answer, requests are served (availability first), counted
// and logged, at most every 10 s.
import type { Response } from 'express';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Scope } from '@backbone/contracts';
import { isEnforceableRateLimit } from '@backbone/domain';
import type { KeyRateLimitOverride } from '@backbone/db';
import type { AuthContext } from './auth.js';
import { HttpProblem } from './problems.js';
import { countRateLimitedRequest, countRateLimiterFailedOpen } from '@backbone/metrics';

export type RateLimitBudget = KeyRateLimitOverride;

/** The configured default budgets: ota keys, usage keys (usage:write, usage:read, platform:events), admin keys. */
export interface RateLimitDefaults {
  ota: RateLimitBudget;
  usage: RateLimitBudget;
  admin: RateLimitBudget;
}

const DEFAULTS_OF_SCOPE: Record<Scope, keyof RateLimitDefaults> = {
  ota: 'ota',
  'usage:write': 'usage',
  'usage:read': 'usage',
  'platform:events': 'usage',
  admin: 'admin',
};

/** The Redis keys of the budgets; a key id is a UUID, so environments sharing one Redis do not share budgets. */
export const RATE_LIMIT_KEY_PREFIX = 'backbone:rate-limit';

/** The one policy's name in the RateLimit-Policy and RateLimit fields. */
const POLICY = '"default"';
const WARN_EVERY_MS = 10_000;

export interface RateLimitWindow {
  quota: number;
  windowSeconds: number;
}

/** The quota and window that enforce a budget (see the module's first lines). */
export function windowOf(budget: RateLimitBudget): RateLimitWindow {
  return { quota: budget.burst, windowSeconds: Math.max(1, Math.ceil(budget.burst / budget.perSecond)) };
}

/** The budget that applies to a key, and its name for the metrics: the key's override, else its largest default. */
export function budgetOf(auth: Pick<AuthContext, 'scopes' | 'rateLimit'>, defaults: RateLimitDefaults): RateLimitBudget & { name: string } {
  if (auth.rateLimit) return { ...auth.rateLimit, name: 'override' };
  let name: keyof RateLimitDefaults = 'ota';
  let first = true;
  for (const scope of auth.scopes) {
    const candidate = DEFAULTS_OF_SCOPE[scope];
    const [budget, largest] = [defaults[candidate], defaults[name]];
    if (first || budget.perSecond > largest.perSecond || (budget.perSecond === largest.perSecond && budget.burst > largest.burst)) name = candidate;
    first = false;
  }
  return { ...defaults[name], name };
}

/** Refuses a budget that cannot be enforced as documented (at boot, from configuration). */
export function assertBudget(name: string, budget: RateLimitBudget): void {
  if (!isEnforceableRateLimit(budget)) {
    throw new Error(`rate limit ${name}: per second and burst must be whole numbers of at least 1, and the burst at least the rate per second`);
  }
}

export interface KeyRateLimiter {
  /**
   * Spends one request of the key's budget (keyed by its id) and sets the RateLimit-Policy and RateLimit headers on
   * `res`; throws the 429 problem when the budget is spent. Sets nothing and lets the request through when Redis does
   * not answer.
   */
  admit(keyId: string, auth: Pick<AuthContext, 'scopes' | 'rateLimit'>, res: Response): Promise<void>;
}

interface Limiter {
  limiter: RateLimiterRedis;
  window: RateLimitWindow;
  /** Requests reserved in Redis at a time (see Reserve). */
  chunk: number;
  policy: string;
}

/**
 * What this process has reserved of a key's quota in the current window. A check that finds requests left here
 * spends one without asking Redis; otherwise it reserves `chunk` more in one round trip. A chunk is 1% of the quota
 * (1 below a quota of 200, so small quotas are exact to the request): a large quota, which only heavy traffic spends,
 * costs one Redis round trip per chunk instead of one per request. Reserving never lets more than the quota through;
 * what a process reserved and did not use is lost with the window, so with several processes a key may be refused
 * up to one chunk per process early.
 */
interface Reserve {
  limiter: Limiter;
  /** When Redis's window ends (Date.now() clock). */
  endsAt: number;
  /** Reserved and not yet spent. */
  left: number;
  /** Redis's count for the window when last seen (reservations of every process, refused ones included). */
  counted: number;
}

const MAX_RESERVES = 10_000;

export function createKeyRateLimiter(options: { redis: Redis; defaults: RateLimitDefaults; logger: Logger; keyPrefix?: string }): KeyRateLimiter {
  for (const kind of ['ota', 'usage', 'admin'] as const) assertBudget(kind, options.defaults[kind]);
  const keyPrefix = options.keyPrefix ?? RATE_LIMIT_KEY_PREFIX;
  // One RateLimiterRedis per distinct window (the defaults and the overrides in use), all on the same Redis keys: a
  // key whose limit changes keeps what it spent in the current window.
  const limiters = new Map<string, Limiter>();
  const limiterOf = (budget: RateLimitBudget): Limiter => {
    const window = windowOf(budget);
    const id = `${window.quota}/${window.windowSeconds}`;
    let found = limiters.get(id);
    if (!found) {
      const limiter = new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix,
        points: window.quota,
        duration: window.windowSeconds,
        rejectIfRedisNotReady: true,
      });
      found = { limiter, window, chunk: Math.max(1, Math.floor(window.quota / 100)), policy: `${POLICY};q=${window.quota};w=${window.windowSeconds}` };
      limiters.set(id, found);
    }
    return found;
  };
  const reserves = new Map<string, Reserve>();
  const currentReserve = (keyId: string, limiter: Limiter, now: number): Reserve | undefined => {
    const reserve = reserves.get(keyId);
    return reserve && reserve.limiter === limiter && reserve.endsAt > now ? reserve : undefined;
  };
  /** Reserves a chunk in Redis; the key's reserve with what was granted, or null when Redis did not answer. */
  const reserveChunk = async (keyId: string, limiter: Limiter): Promise<Reserve | null> => {
    let state: RateLimiterRes;
    try {
      state = await limiter.limiter.consume(keyId, limiter.chunk);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        failOpen(error);
        return null;
      }
      state = error;
    }
    // Near the quota's end a chunk is granted in part: Redis counted it whole, the rest was never there.
    const granted = Math.max(0, Math.min(limiter.chunk, limiter.window.quota - (state.consumedPoints - limiter.chunk)));
    const now = Date.now();
    const reserve = currentReserve(keyId, limiter, now);
    // Another request of this key may have reserved meanwhile in the same window (Redis's count has not gone back).
    if (reserve && state.consumedPoints >= reserve.counted) {
      reserve.left += granted;
      reserve.counted = state.consumedPoints;
      return reserve;
    }
    if (reserves.size >= MAX_RESERVES) for (const [id, old] of reserves) if (old.endsAt <= now) reserves.delete(id);
    const fresh = { limiter, endsAt: now + state.msBeforeNext, left: granted, counted: state.consumedPoints };
    reserves.set(keyId, fresh);
    return fresh;
  };
  let lastWarningAt = 0;
  let failedSinceWarning = 0;
  const failOpen = (error: unknown) => {
    countRateLimiterFailedOpen();
    failedSinceWarning++;
    const now = Date.now();
    if (now - lastWarningAt < WARN_EVERY_MS) return;
    options.logger.warn(
      { err: error, requestsServedUnlimited: failedSinceWarning },
      'rate limits: Redis did not answer; requests are served without a limit until it does',
    );
    lastWarningAt = now;
    failedSinceWarning = 0;
  };

  // A key's AuthContext is the key verifier's cached object, replaced when its limit changes: its budget and limiter
  // are worked out once per such object rather than on every request.
  const resolved = new WeakMap<object, { budget: ReturnType<typeof budgetOf>; limiter: Limiter }>();
  const resolve = (auth: Pick<AuthContext, 'scopes' | 'rateLimit'>) => {
    let found = resolved.get(auth);
    if (!found) {
      const budget = budgetOf(auth, options.defaults);
      found = { budget, limiter: limiterOf(budget) };
      resolved.set(auth, found);
    }
    return found;
  };

  return {
    async admit(keyId, auth, res) {
      const { budget, limiter } = resolve(auth);
      let reserve = currentReserve(keyId, limiter, Date.now());
      // A key known to have spent its quota in this window is refused without asking Redis again.
      if (!reserve || (reserve.left === 0 && reserve.counted < limiter.window.quota)) {
        const reserved = await reserveChunk(keyId, limiter);
        if (!reserved) return;
        reserve = reserved;
      }
      const { quota, windowSeconds } = limiter.window;
      const resetSeconds = Math.max(1, Math.ceil((reserve.endsAt - Date.now()) / 1000));
      res.setHeader('RateLimit-Policy', limiter.policy);
      if (reserve.left > 0) {
        reserve.left--;
        res.setHeader('RateLimit', `${POLICY};r=${Math.max(0, quota - reserve.counted + reserve.left)};t=${resetSeconds}`);
        return;
      }
      res.setHeader('RateLimit', `${POLICY};r=0;t=${resetSeconds}`);
      countRateLimitedRequest(budget.name);
      throw new HttpProblem(
        'rate-limited',
        `This API key may make ${quota} requests per ${windowSeconds} s and has made them; retry after ${resetSeconds} s.`,
        {},
        { 'Retry-After': String(resetSeconds) },
      );
    },
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
