// The announcing side of key revocations: a changed key (revoked, or given another rate limit) is announced on a Redis
// pub/sub channel, where every running API process listens (packages/http key-revocations.ts) and drops the key from
// its verifier's cache. The announcement follows the change committed in PostgreSQL; a process that misses it still
// sees the change once its cache entry lapses (AUTH_CACHE_TTL_MS).
import { Redis } from 'ioredis';

/** One channel for every environment on this Redis: a key id is a UUID, so another environment's revocation drops nothing. */
export const KEY_REVOCATIONS_CHANNEL = 'backbone:api-key-revocations';

/** Announces changed keys over Redis at `redisUrl` (the use cases' KeyRevocations port). */
export function keyRevocationsOver(redisUrl: string): { announce(keyId: string): Promise<number | null> } {
  return {
    async announce(keyId) {
      // One attempt, a few seconds at most: the change itself is already committed.
      const redis = new Redis(redisUrl, {
        lazyConnect: true,
        connectTimeout: 3000,
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        return await redis.publish(KEY_REVOCATIONS_CHANNEL, keyId);
      } catch {
        return null;
      } finally {
        redis.disconnect();
      }
    },
  };
}
