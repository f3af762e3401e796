// Per-address rate limits for the public operations (the booking page's API, which has no key): the per-key limits'
// machinery (rate-limits.ts: Redis windows reserved in chunks, the RateLimit fields, the 429 with Retry-After), with
// one budget per kind of request (reads, holds, uploads) counted per client address. When Redis does not answer,
// requests are served, as a key's are.
import type { Response } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { countRateLimitedRequest, countRateLimiterFailedOpen } from '@backbone/metrics';
import { assertBudget, type RateLimitBudget } from './rate-limit-budgets.js';
import { rateLimited, setRateLimitFields } from './rate-limit-fields.js';
import { createReserves, windowLimiters, type WindowLimiter } from './rate-limit-reserves.js';

export const ADDRESS_LIMIT_KINDS = ['read', 'hold', 'upload'] as const;
export type AddressLimitKind = (typeof ADDRESS_LIMIT_KINDS)[number];

/** Apart from the keys' budgets: an address is not a key id. */
export const ADDRESS_RATE_LIMIT_KEY_PREFIX = 'backbone:address-rate-limit';

export interface AddressRateLimiter {
  /** Spends one request of the address's budget of `kind`; throws the 429 problem when it is spent. */
  admit(kind: AddressLimitKind, address: string, res: Response): Promise<void>;
}

export function createAddressRateLimiter(options: {
  redis: Redis;
  budgets: Record<AddressLimitKind, RateLimitBudget>;
  logger: Logger;
  keyPrefix?: string;
}): AddressRateLimiter {
  for (const kind of ADDRESS_LIMIT_KINDS) assertBudget(`shop ${kind}s`, options.budgets[kind]);
  const limiterOf = windowLimiters(options.redis, options.keyPrefix ?? ADDRESS_RATE_LIMIT_KEY_PREFIX);
  const limiters = Object.fromEntries(ADDRESS_LIMIT_KINDS.map((kind) => [kind, limiterOf(options.budgets[kind])])) as Record<AddressLimitKind, WindowLimiter>;
  let lastWarningAt = 0;
  const reserves = createReserves((error) => {
    countRateLimiterFailedOpen();
    if (Date.now() - lastWarningAt < 10_000) return;
    lastWarningAt = Date.now();
    options.logger.warn({ err: error }, 'address rate limits: Redis did not answer; requests are served without a limit until it does');
  });
  return {
    async admit(kind, address, res) {
      const limiter = limiters[kind];
      const id = `${kind}:${address}`;
      let reserve = reserves.current(id, limiter, Date.now());
      if (!reserve || (reserve.left === 0 && reserve.counted < limiter.window.quota)) {
        const reserved = await reserves.reserveChunk(id, limiter);
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
      countRateLimitedRequest(`shop-${kind}`);
      throw rateLimited(limiter.window, resetSeconds, 'This address', `${kind} `);
    },
  };
}
