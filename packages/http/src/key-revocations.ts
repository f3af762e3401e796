// Revoking an API key everywhere at once. The revocation is written to PostgreSQL, then announced on a Redis pub/sub
// channel; every running API process listens there and drops the key from its verifier's cache, so the next request
// with it looks it up and gets a 401. The cache (AUTH_CACHE_TTL_MS) keeps the lookups off the request path; it bounds
// how long a revoked key still works only while a process cannot hear Redis. A change of a key's rate limit is announced
// the same way: what a process drops is the cached key, whatever changed about it.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { revokeApiKey, setApiKeyRateLimit, type KeyRateLimitOverride, type Pool } from '@backbone/db';
import type { KeyVerifier } from './auth.js';
import { assertBudget } from './rate-limits.js';

/** One channel for every environment on this Redis: a key id is a UUID, so another environment's revocation drops nothing. */
export const KEY_REVOCATIONS_CHANNEL = 'backbone:api-key-revocations';

export interface KeyRevocation {
  /** false when the account has no such active key. */
  revoked: boolean;
  /** How many running processes heard the announcement; null when Redis did not answer (they stop within the TTL). */
  heardBy: number | null;
}

/** Revokes a key of this account and announces it to every running API process (the admin CLI's revoke-key). */
export async function revokeKey(pool: Pool, redisUrl: string, accountId: string, keyId: string): Promise<KeyRevocation> {
  if (!(await revokeApiKey(pool, accountId, keyId))) return { revoked: false, heardBy: null };
  return { revoked: true, heardBy: await announce(redisUrl, keyId) };
}

export interface KeyRateLimitChange {
  /** The key's id; null when the account has no single active key of that id or prefix. */
  keyId: string | null;
  /** How many running processes heard it; null when Redis did not answer (they apply it within AUTH_CACHE_TTL_MS). */
  heardBy: number | null;
}

/**
 * Gives an active key of this account (by id or prefix) its own rate limit, or with null takes it back to the defaults
 * of its scopes, and announces it so that running APIs look the key up again on its next request (the admin CLI's
 * set-key-limit).
 */
export async function setKeyRateLimit(
  pool: Pool,
  redisUrl: string,
  accountId: string,
  idOrPrefix: string,
  limit: KeyRateLimitOverride | null,
): Promise<KeyRateLimitChange> {
  if (limit) assertBudget('of the key', limit);
  const keyId = await setApiKeyRateLimit(pool, accountId, idOrPrefix, limit);
  if (!keyId) return { keyId: null, heardBy: null };
  return { keyId, heardBy: await announce(redisUrl, keyId) };
}

async function announce(redisUrl: string, keyId: string): Promise<number | null> {
  // One attempt, a few seconds at most: the revocation itself is already committed.
  const redis = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return await redis.publish(KEY_REVOCATIONS_CHANNEL, keyId);
  } catch {
    return null;
  } finally {
    redis.disconnect();
  }
}

export interface KeyRevocationListener {
  /** Resolves when the first subscription is in place (a server does not wait for it: it serves without Redis). */
  subscribed: Promise<void>;
  close(): void;
}

/**
 * Subscribes to the revocations on a connection of its own (a subscribed connection can do nothing else) and makes
 * `verifier` forget each revoked key. Announcements sent while the connection was down are lost, so every time the
 * subscription is back in place the whole cache is dropped. Reconnects for as long as the process runs.
 */
export function listenForKeyRevocations(options: { redisUrl: string; verifier: KeyVerifier; logger: Logger; clientName: string }): KeyRevocationListener {
  const { verifier, logger } = options;
  // autoResubscribe is off so that the cache is dropped exactly when the subscription is confirmed again: dropped
  // earlier, a key looked up before the SUBSCRIBE took effect could be cached and its revocation missed.
  const redis = new Redis(options.redisUrl, { connectionName: options.clientName, autoResubscribe: false, maxRetriesPerRequest: null });
  let listening = false;
  let warned = false;
  let closed = false;
  let markSubscribed: () => void;
  const subscribed = new Promise<void>((resolve) => (markSubscribed = resolve));
  const unavailable = (err?: unknown) => {
    listening = false;
    if (warned || closed) return;
    warned = true;
    logger.warn({ err }, 'key revocations: Redis unreachable; until it is back, a revoked key works for up to AUTH_CACHE_TTL_MS on this process');
  };

  redis.on('message', (channel: string, keyId: string) => {
    if (channel === KEY_REVOCATIONS_CHANNEL) verifier.forget(keyId);
  });
  redis.on('ready', () => {
    redis.subscribe(KEY_REVOCATIONS_CHANNEL).then(
      () => {
        verifier.forgetAll();
        if (warned) logger.info('key revocations: listening again; every cached key was dropped (announcements may have been missed)');
        listening = true;
        warned = false;
        markSubscribed();
      },
      (err: unknown) => unavailable(err),
    );
  });
  redis.on('error', (err: unknown) => unavailable(err));
  redis.on('close', () => {
    if (listening) unavailable();
  });
  return {
    subscribed,
    close() {
      closed = true;
      redis.disconnect();
    },
  };
}
