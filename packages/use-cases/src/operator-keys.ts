// API keys, for the console and the admin CLI alike: create one (the secret shown once; an ota key joins the partner
// named, or else gets a partner of its own in the same statement), revoke one, give one its own rate limit. A revocation
// or a new limit is announced to every running API process through the KeyRevocations port, so that each drops the key
// from its cache at once instead of within AUTH_CACHE_TTL_MS.
import { SCOPES, type Scope } from '@backbone/contracts';
import { createApiKey, findPartner, revokeApiKey, setApiKeyRateLimit, type CreatedApiKey, type Db, type Pool } from '@backbone/db';
import { checkKeyRateLimit, ValidationError, type RateLimit } from '@backbone/domain';

/** Where a changed key is announced (packages/publisher keyRevocationsOver: a Redis channel every API listens on). */
export interface KeyRevocations {
  /** How many running processes heard it; null when they could not be told (they see it within AUTH_CACHE_TTL_MS). */
  announce(keyId: string): Promise<number | null>;
}

export interface KeyUnitOfWork {
  pool: Pool;
  keyRevocations: KeyRevocations;
}

const isScope = (scope: string): scope is Scope => (SCOPES as readonly string[]).includes(scope);

/** `uow.pool` may be a transaction's client, for a write that joins a larger one (seedOperator). */
export async function createOperatorKey(
  uow: { pool: Db },
  request: { accountId: string; name: string; scopes: readonly string[]; /** A partner's id or name (any case), for an ota key. */ partner?: string },
): Promise<CreatedApiKey> {
  const scopes = [...new Set(request.scopes)];
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    const message = `Scopes must be a list of ${SCOPES.join(', ')}; unknown: ${unknown.join(', ') || '(none given)'}.`;
    throw new ValidationError([{ field: 'Scopes', message }]);
  }
  let partnerId: string | null = null;
  if (request.partner !== undefined) {
    if (!scopes.includes('ota')) throw new ValidationError([{ field: 'Partner', message: 'A partner is only for keys with the ota scope.' }]);
    const partner = await findPartner(uow.pool, request.accountId, request.partner);
    if (!partner) throw new ValidationError([{ field: 'Partner', message: `The account has no partner '${request.partner}'.` }]);
    partnerId = partner.id;
  }
  return createApiKey(uow.pool, request.accountId, { name: request.name, scopes: scopes as Scope[], partnerId });
}

export interface KeyRevocation {
  /** false when the account has no such active key. */
  revoked: boolean;
  /** How many running processes heard the announcement; null when Redis did not answer (they stop within the TTL). */
  heardBy: number | null;
}

/** Revokes a key of this account and announces it to every running API process. */
export async function revokeKey(uow: KeyUnitOfWork, request: { accountId: string; keyId: string }): Promise<KeyRevocation> {
  if (!(await revokeApiKey(uow.pool, request.accountId, request.keyId))) return { revoked: false, heardBy: null };
  return { revoked: true, heardBy: await uow.keyRevocations.announce(request.keyId) };
}

export interface KeyRateLimitChange {
  /** The key's id; null when the account has no single active key of that id or prefix. */
  keyId: string | null;
  /** How many running processes heard it; null when Redis did not answer (they apply it within AUTH_CACHE_TTL_MS). */
  heardBy: number | null;
}

/**
 * Gives an active key of this account (by id or prefix) its own rate limit, or with null takes it back to the defaults
 * of its scopes, and announces it so that running APIs look the key up again on its next request.
 */
export async function setKeyRateLimit(uow: KeyUnitOfWork, request: { accountId: string; key: string; limit: RateLimit | null }): Promise<KeyRateLimitChange> {
  if (request.limit) checkKeyRateLimit(request.limit);
  const keyId = await setApiKeyRateLimit(uow.pool, request.accountId, request.key, request.limit);
  if (!keyId) return { keyId: null, heardBy: null };
  return { keyId, heardBy: await uow.keyRevocations.announce(keyId) };
}
