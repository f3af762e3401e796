// Which budget a key has, and the window that enforces it (rate-limits.ts tells the whole story): a key's own
// override, else the largest default of its scopes.
import type { Scope } from '@backbone/contracts';
import { isEnforceableRateLimit } from '@backbone/domain';
import type { KeyRateLimitOverride } from '@backbone/db';
import type { AuthContext } from './auth.js';

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

export interface RateLimitWindow {
  quota: number;
  windowSeconds: number;
}

/** The quota and window that enforce a budget (see rate-limits.ts's first lines). */
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

export interface ResolvedBudget<L> {
  budget: ReturnType<typeof budgetOf>;
  limiter: L;
}

/**
 * Each key's budget and the limiter of its window. A key's AuthContext is the key verifier's cached object, replaced
 * when its limit changes: its budget and limiter are worked out once per such object rather than on every request.
 */
export function resolveBudgetsOnce<L>(
  defaults: RateLimitDefaults,
  limiterOf: (budget: RateLimitBudget) => L,
): (auth: Pick<AuthContext, 'scopes' | 'rateLimit'>) => ResolvedBudget<L> {
  const resolved = new WeakMap<object, ResolvedBudget<L>>();
  return (auth) => {
    let found = resolved.get(auth);
    if (!found) {
      const budget = budgetOf(auth, defaults);
      found = { budget, limiter: limiterOf(budget) };
      resolved.set(auth, found);
    }
    return found;
  };
}
