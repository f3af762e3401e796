// Hearing key revocations: every running API process listens on the Redis channel where a revoked key (or one given
// another rate limit) is announced (packages/publisher key-revocations.ts; the use cases revokeOperatorKey and setKeyRateLimit
// announce) and drops the key from its verifier's cache, so the next request with it looks it up and gets a 401. The
// cache (AUTH_CACHE_TTL_MS) keeps the lookups off the request path; it bounds how long a revoked key still works only
// while a process cannot hear Redis. What a process drops is the cached key, whatever changed about it.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { KEY_REVOCATIONS_CHANNEL } from '@backbone/publisher';
import type { KeyVerifier } from './auth.js';

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
