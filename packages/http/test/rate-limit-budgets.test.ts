// Which budget a key has (its own override, else the largest default of its scopes), and the quota window that
// enforces it.
import { describe, expect, it } from 'vitest';
import type { Scope } from '@backbone/contracts';
import { assertBudget, budgetOf, resolveBudgetsOnce, windowOf, type RateLimitDefaults } from '../src/rate-limit-budgets.js';

const defaults: RateLimitDefaults = {
  ota: { perSecond: 20, burst: 40 },
  usage: { perSecond: 200, burst: 400 },
  admin: { perSecond: 20, burst: 60 },
};
const key = (scopes: Scope[], rateLimit: { perSecond: number; burst: number } | null = null) => ({ scopes, rateLimit });

describe('windowOf', () => {
  it('is a quota of the burst per the seconds the rate takes to earn it, rounded up, at least one second', () => {
    expect(windowOf({ perSecond: 20, burst: 40 })).toEqual({ quota: 40, windowSeconds: 2 });
    expect(windowOf({ perSecond: 3, burst: 10 })).toEqual({ quota: 10, windowSeconds: 4 });
    expect(windowOf({ perSecond: 50, burst: 50 })).toEqual({ quota: 50, windowSeconds: 1 });
  });
});

describe('budgetOf', () => {
  it("takes the key's own limit over every default", () => {
    expect(budgetOf(key(['usage:write'], { perSecond: 1, burst: 2 }), defaults)).toEqual({ perSecond: 1, burst: 2, name: 'override' });
  });

  it('takes the default of its scope, usage for every usage and platform scope', () => {
    expect(budgetOf(key(['ota']), defaults)).toEqual({ ...defaults.ota, name: 'ota' });
    for (const scope of ['usage:write', 'usage:read', 'platform:events'] as const) {
      expect(budgetOf(key([scope]), defaults)).toEqual({ ...defaults.usage, name: 'usage' });
    }
    expect(budgetOf(key(['admin']), defaults)).toEqual({ ...defaults.admin, name: 'admin' });
  });

  it('takes the largest default of several scopes, by rate and then by burst, in any order', () => {
    expect(budgetOf(key(['ota', 'usage:read']), defaults).name).toBe('usage');
    expect(budgetOf(key(['usage:read', 'ota']), defaults).name).toBe('usage');
    // ota and admin have the same rate; admin's burst is larger.
    expect(budgetOf(key(['ota', 'admin']), defaults).name).toBe('admin');
    expect(budgetOf(key(['admin', 'ota']), defaults).name).toBe('admin');
  });
});

describe('assertBudget', () => {
  it('takes whole numbers of at least 1 with the burst at least the rate, and refuses the rest naming the budget', () => {
    expect(() => assertBudget('ota', { perSecond: 1, burst: 1 })).not.toThrow();
    expect(() => assertBudget('ota', { perSecond: 10, burst: 5 })).toThrow(/^rate limit ota: /);
    expect(() => assertBudget('usage', { perSecond: 0, burst: 5 })).toThrow(/^rate limit usage: /);
    expect(() => assertBudget('admin', { perSecond: 1.5, burst: 5 })).toThrow(/^rate limit admin: /);
    expect(() => assertBudget('admin', { perSecond: 1, burst: Number.NaN })).toThrow();
  });
});

describe('resolveBudgetsOnce', () => {
  it("works out a key's budget and limiter once per context object, again for a new one", () => {
    const made: unknown[] = [];
    const resolve = resolveBudgetsOnce(defaults, (budget) => {
      made.push(budget);
      return { id: made.length };
    });
    const context = key(['ota']);
    const first = resolve(context);
    expect(first).toEqual({ budget: { ...defaults.ota, name: 'ota' }, limiter: { id: 1 } });
    expect(resolve(context)).toBe(first);
    // The key verifier replaces the context when the key's limit changes.
    expect(resolve(key(['ota'], { perSecond: 5, burst: 5 }))).toEqual({ budget: { perSecond: 5, burst: 5, name: 'override' }, limiter: { id: 2 } });
    expect(made).toHaveLength(2);
  });
});
