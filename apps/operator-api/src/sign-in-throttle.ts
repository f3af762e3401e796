// The sign-in throttle on Redis (rate-limiter-flexible): failed sign-ins counted in fixed windows, shared by every
// operator API process, so a guesser gains nothing from reaching another replica. Three counts: per e-mail and address
// together (the guesses at one account from one place), per address (a ceiling against spraying many accounts), and
// per e-mail from anywhere (only to tell whether the account itself was guessed at lately; it refuses nothing alone).
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { SignInCaller, SignInThrottle } from '@backbone/use-cases';

export interface SignInThrottleOptions {
  keyPrefix: string;
  /** Failures of one e-mail from one address before that pair waits. */
  maxFailures: number;
  /** Failures from one address, whatever the e-mails, before the address waits. */
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

export function createSignInThrottle(redis: Redis, options: SignInThrottleOptions): SignInThrottle {
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.keyPrefix}:${name}`, points, duration: options.windowSeconds });
  const pair = limiter('pair', options.maxFailures);
  const address = limiter('address', options.maxFailuresPerAddress);
  const email = limiter('email', options.maxFailures);
  // An address never holds a space, so the pair's key cannot be read two ways.
  const keys = (caller: SignInCaller) => {
    const from = throttledAddress(caller.address);
    return { pair: `${from} ${caller.email}`, address: from, email: caller.email };
  };
  const waitOf = (state: RateLimiterRes | null, points: number) =>
    state && state.consumedPoints >= points ? Math.max(1, Math.ceil(state.msBeforeNext / 1000)) : 0;
  const consume = (limiter: RateLimiterRedis, key: string) =>
    limiter.consume(key).catch((error: unknown) => {
      // Over the budget already: the next attempt is refused by standing(); anything else is a real failure.
      if (!(error instanceof RateLimiterRes)) throw error;
    });

  return {
    async standing(caller) {
      const k = keys(caller);
      const [pairState, addressState, emailState] = await Promise.all([pair.get(k.pair), address.get(k.address), email.get(k.email)]);
      return {
        pairWaitSeconds: waitOf(pairState, options.maxFailures),
        addressWaitSeconds: waitOf(addressState, options.maxFailuresPerAddress),
        emailFailedRecently: (emailState?.consumedPoints ?? 0) > 0,
      };
    },
    async recordFailure(caller) {
      const k = keys(caller);
      await Promise.all([consume(pair, k.pair), consume(address, k.address), consume(email, k.email)]);
    },
    async recordSuccess(caller) {
      // The address's count stays: one account's right password must not wipe what a sprayer did from there.
      const k = keys(caller);
      await Promise.all([pair.delete(k.pair), email.delete(k.email)]);
    },
  };
}

/**
 * The address a count is kept for: IPv4 as it is (an IPv4-mapped IPv6 address as the IPv4 one), IPv6 by its /64, which
 * one subscriber is usually given whole: counting each of its addresses apart would give a guesser 2^64 budgets.
 */
export function throttledAddress(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
