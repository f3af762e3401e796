// The chunked reservation of a key's quota from Redis. What this process has reserved of a key's quota in the
// current window is its reserve: a check that finds requests left there spends one without asking Redis; otherwise
// it reserves `chunk` more in one round trip. A chunk is 1% of the quota (1 below a quota of 200, so small quotas are
// exact to the request): a large quota, which only heavy traffic spends, costs one Redis round trip per chunk instead
// of one per request. Reserving never lets more than the quota through; what a process reserved and did not use is
// lost with the window, so with several processes a key may be refused up to one chunk per process early.
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { windowOf, type RateLimitBudget, type RateLimitWindow } from './rate-limit-budgets.js';
import { policyField } from './rate-limit-fields.js';

/** The counting of one window on Redis (rate-limiter-flexible's RateLimiterRedis: one atomic script per reservation). */
export interface WindowLimiter {
  limiter: RateLimiterRedis;
  window: RateLimitWindow;
  /** Requests reserved in Redis at a time. */
  chunk: number;
  /** Its RateLimit-Policy field. */
  policy: string;
}

/**
 * One RateLimiterRedis per distinct window (the defaults and the overrides in use), all on the same Redis keys: a key
 * whose limit changes keeps what it spent in the current window.
 */
export function windowLimiters(redis: Redis, keyPrefix: string): (budget: RateLimitBudget) => WindowLimiter {
  const limiters = new Map<string, WindowLimiter>();
  return (budget) => {
    const window = windowOf(budget);
    const id = `${window.quota}/${window.windowSeconds}`;
    let found = limiters.get(id);
    if (!found) {
      const limiter = new RateLimiterRedis({
        storeClient: redis,
        keyPrefix,
        points: window.quota,
        duration: window.windowSeconds,
        rejectIfRedisNotReady: true,
      });
      found = { limiter, window, chunk: Math.max(1, Math.floor(window.quota / 100)), policy: policyField(window) };
      limiters.set(id, found);
    }
    return found;
  };
}

export interface Reserve {
  limiter: WindowLimiter;
  /** When Redis's window ends (Date.now() clock). */
  endsAt: number;
  /** Reserved and not yet spent. */
  left: number;
  /** Redis's count for the window when last seen (reservations of every process, refused ones included). */
  counted: number;
}

export interface Reserves {
  /** The key's reserve in its limiter's current window, if this process holds one. */
  current(keyId: string, limiter: WindowLimiter, now: number): Reserve | undefined;
  /** Reserves a chunk in Redis; the key's reserve with what was granted, or null when Redis did not answer. */
  reserveChunk(keyId: string, limiter: WindowLimiter): Promise<Reserve | null>;
}

const MAX_RESERVES = 10_000;

/** The reserves of every key; `failOpen` hears of each reservation Redis did not answer. */
export function createReserves(failOpen: (error: unknown) => void): Reserves {
  const reserves = new Map<string, Reserve>();
  const current = (keyId: string, limiter: WindowLimiter, now: number): Reserve | undefined => {
    const reserve = reserves.get(keyId);
    return reserve && reserve.limiter === limiter && reserve.endsAt > now ? reserve : undefined;
  };
  return {
    current,
    async reserveChunk(keyId, limiter) {
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
      const reserve = current(keyId, limiter, now);
      // Another request of this key may have reserved meanwhile in the same window (Redis's count has not gone back).
      if (reserve && state.consumedPoints >= reserve.counted) {
        reserve.left += granted;
        reserve.counted = state.consumedPoints;
        return reserve;
      }
      if (reserves.size >= MAX_RESERVES) makeRoom(reserves, now);
      const fresh = { limiter, endsAt: now + state.msBeforeNext, left: granted, counted: state.consumedPoints };
      reserves.set(keyId, fresh);
      return fresh;
    },
  };
}

/**
 * Frees a tenth of the reserves at once, so a flood of new keys (the booking page's API sees a new client address on
 * almost every request) pays one sweep per thousand reservations, not one per request: the expired first, then the
 * oldest reserved (a Map iterates in insertion order). A live reserve dropped loses what it had not spent, so the
 * key asks Redis again: never more let through, at most refused a chunk early.
 */
function makeRoom(reserves: Map<string, Reserve>, now: number): void {
  const target = Math.floor(MAX_RESERVES * 0.9);
  for (const [id, reserve] of reserves) if (reserve.endsAt <= now) reserves.delete(id);
  for (const id of reserves.keys()) {
    if (reserves.size <= target) break;
    reserves.delete(id);
  }
}
