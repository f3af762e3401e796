// The sign-in throttle. Failed sign-ins are counted on Redis (rate-limiter-flexible) in fixed windows, shared by every
// operator API process, so a guesser gains nothing from reaching another replica. Three counts: per e-mail and address
// together (the guesses at one account from one place), per address (a ceiling against spraying many accounts), and
// per e-mail from anywhere (only to tell whether the account itself was guessed at lately; it refuses nothing alone).
// And, in each process, what a sign-in costs: each checked password is a hash of tens of milliseconds of a core. The
// hashes take turns, a few at once, and an address has only a few sign-ins in progress at once; more are refused
// before anything is looked up. 48 sign-ins at once from one address had made a sign-in from elsewhere wait for all
// their hashes (48 times as long as alone).
import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { PasswordResetThrottle, SignInCaller, SignInThrottle } from '@backbone/use-cases';

export interface SignInThrottleOptions {
  keyPrefix: string;
  /** Failures of one e-mail from one address before that pair waits. */
  maxFailures: number;
  /** Failures from one address, whatever the e-mails, before the address waits. */
  maxFailuresPerAddress: number;
  windowSeconds: number;
  /** Password hashes this process runs at once (SIGN_IN_HASH_CONCURRENCY); 0: one per CPU it may use. */
  hashConcurrency: number;
  /** Sign-ins of one address in progress at once in this process; one more is refused before any look-up or hash. */
  maxConcurrentPerAddress: number;
}

export function createSignInThrottle(redis: Redis, options: SignInThrottleOptions): SignInThrottle {
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.keyPrefix}:${name}`, points, duration: options.windowSeconds });
  const pair = limiter('pair', options.maxFailures);
  const address = limiter('address', options.maxFailuresPerAddress);
  const email = limiter('email', options.maxFailures);
  const inProgress = new Map<string, number>();
  const inTurn = createTurns(options.hashConcurrency || availableParallelism());
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
    enter(caller) {
      const from = throttledAddress(caller.address);
      const count = inProgress.get(from) ?? 0;
      if (count >= options.maxConcurrentPerAddress) return null;
      inProgress.set(from, count + 1);
      return () => {
        const remaining = inProgress.get(from)! - 1;
        if (remaining === 0) inProgress.delete(from);
        else inProgress.set(from, remaining);
      };
    },
    inTurn,
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
 * Runs work in turns: `concurrency` at once, the rest waiting in arrival order. With an address's sign-ins in progress
 * bounded, a flooding address holds only that many places in the line, and a sign-in from elsewhere waits behind those,
 * not behind the flood.
 */
function createTurns(concurrency: number) {
  const waiting: (() => void)[] = [];
  let running = 0;
  const turn = () => (running < concurrency ? (running++, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve)));
  // A finished turn passes straight to the next in line, so `running` goes down only when nobody waits.
  const pass = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async <T>(work: () => Promise<T>): Promise<T> => {
    await turn();
    try {
      return await work();
    } finally {
      pass();
    }
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

export interface PasswordResetThrottleOptions {
  keyPrefix: string;
  /** Reset e-mails to one address within the window; more requests for it send nothing (the answer stays the same). */
  maxPerEmail: number;
  /** Requests from one caller address (an IPv6 /64), whatever the e-mails, before it waits (429). */
  maxPerAddress: number;
  windowSeconds: number;
}

/**
 * "Forgot your password?" counted on Redis like the failed sign-ins: per e-mail, so the form cannot fill someone's
 * mailbox, and per address, so one caller cannot spray it over many addresses. Every request counts, whether or not the
 * address is a user's: the counts tell nothing either.
 */
export function createPasswordResetThrottle(redis: Redis, options: PasswordResetThrottleOptions): PasswordResetThrottle {
  const limiter = (name: string, points: number) =>
    new RateLimiterRedis({ storeClient: redis, keyPrefix: `${options.keyPrefix}:${name}`, points, duration: options.windowSeconds });
  const byAddress = limiter('address', options.maxPerAddress);
  const byEmail = limiter('email', options.maxPerEmail);
  const spent = (limiter: RateLimiterRedis, key: string) =>
    limiter.consume(key).then(
      () => null,
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return error;
        throw error;
      },
    );
  return {
    async spend(caller) {
      const refused = await spent(byAddress, throttledAddress(caller.address));
      if (refused) return { waitSeconds: Math.max(1, Math.ceil(refused.msBeforeNext / 1000)) };
      return (await spent(byEmail, caller.email)) ? 'quiet' : 'send';
    },
  };
}
