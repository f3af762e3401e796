// API keys: created with a random secret shown once, stored as its SHA-256 hash, revocable.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Scope } from '@backbone/contracts';
import type { Db } from './pool.js';

const KEY_PREFIX = 'bk_';

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  accountTimeZone: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  /** The partner an ota key belongs to; null for keys without the ota scope. */
  partnerId: string | null;
  /** The key's own rate limit (set-key-limit); null: the defaults of its scopes. */
  rateLimit: KeyRateLimitOverride | null;
  /** A sandbox key: its bookings are test bookings, on test places, apart from the live ones. */
  test: boolean;
}

export interface KeyRateLimitOverride {
  perSecond: number;
  burst: number;
}

export interface CreatedApiKey extends Omit<ApiKeyRecord, 'accountTimeZone' | 'rateLimit'> {
  /** The only time the secret exists in clear. */
  secret: string;
  createdAt: string;
}

/** SHA-256 suffices: secrets are 192 random bits, so there is nothing to brute-force that a slow hash would protect. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

/**
 * A new key. Every ota key belongs to a partner: the one given, or else a new partner named after the key (with the
 * key's prefix when the account already has a partner of that name), created in the same statement.
 */
export async function createApiKey(
  db: Db,
  accountId: string,
  input: { name: string; scopes: Scope[]; partnerId?: string | null; test?: boolean },
): Promise<CreatedApiKey> {
  const secret = KEY_PREFIX + randomBytes(24).toString('base64url');
  const id = randomUUID();
  const prefix = secret.slice(0, 10);
  const ota = input.scopes.includes('ota');
  const { rows } = await db.query<{ created_at: Date; partner_id: string | null }>(
    `WITH own_partner AS (
       INSERT INTO partners (account_id, name)
       SELECT $2, CASE WHEN EXISTS (SELECT 1 FROM partners WHERE account_id = $2 AND lower(name) = lower($3)) THEN $3 || ' (' || $4 || ')' ELSE $3 END
        WHERE $8 AND $7::uuid IS NULL
       RETURNING id
     )
     INSERT INTO api_keys (id, account_id, name, prefix, secret_hash, scopes, partner_id, test)
     VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $8 THEN coalesce($7::uuid, (SELECT id FROM own_partner)) END, $9)
     RETURNING created_at, partner_id`,
    [id, accountId, input.name, prefix, hashSecret(secret), input.scopes, input.partnerId ?? null, ota, input.test ?? false],
  );
  const row = rows[0]!;
  return {
    id,
    accountId,
    name: input.name,
    prefix,
    scopes: input.scopes,
    partnerId: row.partner_id,
    test: input.test ?? false,
    secret,
    createdAt: row.created_at.toISOString(),
  };
}

/** The active key with this secret, with its account's time zone; null when unknown or revoked. */
export async function findActiveApiKey(db: Db, secret: string): Promise<ApiKeyRecord | null> {
  const { rows } = await db.query<{
    id: string;
    account_id: string;
    time_zone: string;
    name: string;
    prefix: string;
    scopes: Scope[];
    partner_id: string | null;
    rate_limit_per_second: number | null;
    rate_limit_burst: number | null;
    test: boolean;
  }>(
    // Stamps last_used_at on the way, at most once a minute per key, so that the stamp rarely costs a write.
    `WITH key AS (
       SELECT k.id, k.account_id, a.time_zone, k.name, k.prefix, k.scopes, k.partner_id, k.last_used_at, k.rate_limit_per_second, k.rate_limit_burst,
              k.test
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.secret_hash = $1 AND k.revoked_at IS NULL
     ), used AS (
       UPDATE api_keys SET last_used_at = now()
        WHERE id = (SELECT id FROM key WHERE last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
     )
     SELECT id, account_id, time_zone, name, prefix, scopes, partner_id, rate_limit_per_second, rate_limit_burst, test FROM key`,
    [hashSecret(secret)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    accountTimeZone: row.time_zone,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    partnerId: row.partner_id,
    rateLimit: rateLimitOf(row.rate_limit_per_second, row.rate_limit_burst),
    test: row.test,
  };
}

function rateLimitOf(perSecond: number | null, burst: number | null): KeyRateLimitOverride | null {
  return perSecond === null || burst === null ? null : { perSecond, burst };
}

/**
 * Sets (or with null clears) the rate limit of an active key of this account, named by its id or its prefix; the key's
 * id, name and the limit it had, or null when the account has no such active key. A prefix shared by two active keys
 * names neither.
 */
export async function setApiKeyRateLimit(
  db: Db,
  accountId: string,
  idOrPrefix: string,
  limit: KeyRateLimitOverride | null,
): Promise<{ id: string; name: string; previous: KeyRateLimitOverride | null } | null> {
  const { rows } = await db.query<{ id: string; name: string; per_second: number | null; burst: number | null }>(
    `WITH named AS (
       SELECT id, rate_limit_per_second AS per_second, rate_limit_burst AS burst
         FROM api_keys WHERE account_id = $1 AND revoked_at IS NULL AND (id::text = lower($2) OR prefix = $2)
     )
     UPDATE api_keys k SET rate_limit_per_second = $3, rate_limit_burst = $4
       FROM named n
      WHERE k.id = n.id AND (SELECT count(*) FROM named) = 1
      RETURNING k.id, k.name, n.per_second, n.burst`,
    [accountId, idOrPrefix, limit?.perSecond ?? null, limit?.burst ?? null],
  );
  const row = rows[0];
  return row ? { id: row.id, name: row.name, previous: rateLimitOf(row.per_second, row.burst) } : null;
}

/** Revokes a key of this account; its name, or null when the account has no such active key. */
export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<{ name: string } | null> {
  const { rows } = await db.query<{ name: string }>(
    `UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL RETURNING name`,
    [accountId, keyId],
  );
  return rows[0] ?? null;
}

export async function listApiKeys(db: Db, accountId: string) {
  const { rows } = await db.query<{
    id: string;
    name: string;
    prefix: string;
    scopes: Scope[];
    created_at: Date;
    revoked_at: Date | null;
    last_used_at: Date | null;
    rate_limit_per_second: number | null;
    rate_limit_burst: number | null;
    test: boolean;
  }>(
    `SELECT id, name, prefix, scopes, created_at, revoked_at, last_used_at, rate_limit_per_second, rate_limit_burst, test
       FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`,
    [accountId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at?.toISOString() ?? null,
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    rateLimit: rateLimitOf(r.rate_limit_per_second, r.rate_limit_burst),
    test: r.test,
  }));
}
