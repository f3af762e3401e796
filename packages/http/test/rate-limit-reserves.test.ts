// The chunked reservation of a key's quota: what a process may spend without asking Redis again, how a chunk granted
// only in part near the quota's end is counted, and that a Redis that does not answer lets requests through. Redis's
// side is a stand-in answering as RateLimiterRedis's consume does (resolves within the quota, rejects beyond it).
import { describe, expect, it } from 'vitest';
import { RateLimiterRes, type RateLimiterRedis } from 'rate-limiter-flexible';
import { createReserves, type WindowLimiter } from '../src/rate-limit-reserves.js';

/** A window of `quota` requests reserved `chunk` at a time, whose Redis count starts at `counted`. */
function limiterOver(quota: number, chunk: number, counted = 0, msBeforeNext = 1_000) {
  const redis = { counted, calls: 0, down: false };
  const limiter = {
    consume: async (_key: string, points: number) => {
      redis.calls++;
      if (redis.down) throw new Error('Redis is not ready');
      redis.counted += points;
      const state = new RateLimiterRes(Math.max(0, quota - redis.counted), msBeforeNext, redis.counted, false);
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- RateLimiterRedis rejects with a RateLimiterRes beyond the quota
      if (redis.counted > quota) throw state;
      return state;
    },
  } as unknown as RateLimiterRedis;
  const window: WindowLimiter = { limiter, window: { quota, windowSeconds: 1 }, chunk, policy: `"default";q=${quota};w=1` };
  return { window, redis };
}

describe('createReserves', () => {
  it('reserves a whole chunk within the quota, and hands out the same reserve until its window ends', async () => {
    const failures: unknown[] = [];
    const reserves = createReserves((error) => failures.push(error));
    const { window, redis } = limiterOver(100, 5);
    const reserve = await reserves.reserveChunk('key-1', window);
    expect(reserve).toMatchObject({ left: 5, counted: 5, limiter: window });
    expect(reserves.current('key-1', window, Date.now())).toBe(reserve);
    expect(reserves.current('key-1', window, reserve!.endsAt)).toBeUndefined();
    expect(reserves.current('key-2', window, Date.now())).toBeUndefined();
    expect(redis.calls).toBe(1);
    expect(failures).toEqual([]);
  });

  it("adds a second chunk of the same window to the key's reserve", async () => {
    const reserves = createReserves(() => undefined);
    const { window } = limiterOver(100, 5);
    const first = await reserves.reserveChunk('key-1', window);
    first!.left = 0;
    const second = await reserves.reserveChunk('key-1', window);
    expect(second).toBe(first);
    expect(second).toMatchObject({ left: 5, counted: 10 });
  });

  it('counts only the part of a chunk within the quota, and nothing once it is spent', async () => {
    const reserves = createReserves(() => undefined);
    const { window } = limiterOver(100, 5, 97);
    expect(await reserves.reserveChunk('key-1', window)).toMatchObject({ left: 3, counted: 102 });
    const spent = limiterOver(100, 5, 100);
    expect(await createReserves(() => undefined).reserveChunk('key-1', spent.window)).toMatchObject({ left: 0, counted: 105 });
  });

  it("keeps another window's reserve apart (a key whose limit changed)", async () => {
    const reserves = createReserves(() => undefined);
    const before = limiterOver(100, 5);
    const after = limiterOver(10, 1);
    await reserves.reserveChunk('key-1', before.window);
    expect(reserves.current('key-1', after.window, Date.now())).toBeUndefined();
    expect(await reserves.reserveChunk('key-1', after.window)).toMatchObject({ left: 1, counted: 1, limiter: after.window });
  });

  it('makes room in a flood of new keys by dropping the oldest live reserves, a tenth at a time', async () => {
    const reserves = createReserves(() => undefined);
    // A window far longer than the test: no reserve expires, as when every request comes from a new address.
    const { window, redis } = limiterOver(100_000_000, 1, 0, 600_000);
    for (let n = 0; n < 10_000; n++) await reserves.reserveChunk(`address-${n}`, window);
    const now = Date.now();
    expect(reserves.current('address-0', window, now)).toBeDefined();
    await reserves.reserveChunk('address-new', window);
    const later = Date.now();
    expect(reserves.current('address-0', window, later)).toBeUndefined();
    expect(reserves.current('address-999', window, later)).toBeUndefined();
    expect(reserves.current('address-1000', window, later)).toBeDefined();
    expect(reserves.current('address-new', window, later)).toMatchObject({ left: 1 });
    // A dropped key asks Redis again: what it had reserved and not spent is lost, never handed out twice.
    const before = redis.calls;
    expect(await reserves.reserveChunk('address-0', window)).toMatchObject({ left: 1, counted: 10_002 });
    expect(redis.calls).toBe(before + 1);
  });

  it('answers null and tells failOpen when Redis does not answer', async () => {
    const failures: unknown[] = [];
    const reserves = createReserves((error) => failures.push(error));
    const { window, redis } = limiterOver(100, 5);
    redis.down = true;
    expect(await reserves.reserveChunk('key-1', window)).toBeNull();
    expect(failures).toHaveLength(1);
    expect((failures[0] as Error).message).toBe('Redis is not ready');
  });
});
