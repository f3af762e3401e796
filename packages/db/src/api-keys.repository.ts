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
}

export interface CreatedApiKey extends Omit<ApiKeyRecord, 'accountTimeZone'> {
  /** The only time the secret exists in clear. */
  secret: string;
  createdAt: string;
}

/** SHA-256 suffices: secrets are 192 random bits, so there is nothing to brute-force that a slow hash would protect. */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret).digest();
}

export async function createApiKey(db: Db, accountId: string, input: { name: string; scopes: Scope[] }): Promise<CreatedApiKey> {
  const secret = KEY_PREFIX + randomBytes(24).toString('base64url');
  const id = randomUUID();
  const prefix = secret.slice(0, 10);
  const { rows } = await db.query<{ created_at: Date }>(
    `INSERT INTO api_keys (id, account_id, name, prefix, secret_hash, scopes)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING created_at`,
    [id, accountId, input.name, prefix, hashSecret(secret), input.scopes],
  );
  return { id, accountId, name: input.name, prefix, scopes: input.scopes, secret, createdAt: rows[0]!.created_at.toISOString() };
}

/** The active key with this secret, with its account's time zone; null when unknown or revoked. */
export async function findActiveApiKey(db: Db, secret: string): Promise<ApiKeyRecord | null> {
  const { rows } = await db.query<{ id: string; account_id: string; time_zone: string; name: string; prefix: string; scopes: Scope[] }>(
    `SELECT k.id, k.account_id, a.time_zone, k.name, k.prefix, k.scopes
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.secret_hash = $1 AND k.revoked_at IS NULL`,
    [hashSecret(secret)],
  );
  const row = rows[0];
  if (!row) return null;
  return { id: row.id, accountId: row.account_id, accountTimeZone: row.time_zone, name: row.name, prefix: row.prefix, scopes: row.scopes };
}

/** Revokes a key of this account; false when the account has no such active key. */
export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE api_keys SET revoked_at = now() WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL`,
    [accountId, keyId],
  );
  return rowCount === 1;
}

export async function listApiKeys(db: Db, accountId: string) {
  const { rows } = await db.query<{ id: string; name: string; prefix: string; scopes: Scope[]; created_at: Date; revoked_at: Date | null }>(
    `SELECT id, name, prefix, scopes, created_at, revoked_at FROM api_keys WHERE account_id = $1 ORDER BY created_at`,
    [accountId],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    scopes: r.scopes,
    createdAt: r.created_at.toISOString(),
    revokedAt: r.revoked_at?.toISOString() ?? null,
  }));
}
