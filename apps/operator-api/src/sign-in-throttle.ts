// The sign-in throttle on Redis (rate-limiter-flexible): failed sign-ins counted per key in a fixed window, shared by
// every operator API process, so a guesser gains nothing from reaching another replica.
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { SignInThrottle } from '@backbone/use-cases';

export function createSignInThrottle(redis: Redis, options: { keyPrefix: string; maxFailures: number; windowSeconds: number }): SignInThrottle {
  const limiter = new RateLimiterRedis({ storeClient: redis, keyPrefix: options.keyPrefix, points: options.maxFailures, duration: options.windowSeconds });
  return {
    async blockedFor(keys) {
      const states = await Promise.all(keys.map((key) => limiter.get(key)));
      const waits = states.map((state) => (state && state.consumedPoints >= options.maxFailures ? Math.ceil(state.msBeforeNext / 1000) : 0));
      return Math.max(0, ...waits);
    },
    async recordFailure(keys) {
      await Promise.all(
        keys.map((key) =>
          limiter.consume(key).catch((error: unknown) => {
            // Over the budget already: the next attempt is refused by blockedFor; anything else is a real failure.
            if (!(error instanceof RateLimiterRes)) throw error;
          }),
        ),
      );
    },
    async recordSuccess(keys) {
      await Promise.all(keys.map((key) => limiter.delete(key)));
    },
  };
}
