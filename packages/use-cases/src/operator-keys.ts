// API keys, for the console and the admin CLI alike: create one (the secret shown once; an ota key joins the partner
// named, or else gets a partner of its own in the same statement), revoke one, give one its own rate limit. A revocation
// or a new limit is announced to every running API process through the KeyRevocations port, so that each drops the key
// from its cache at once instead of within AUTH_CACHE_TTL_MS. Each change is written with its audit entry (never the
// secret) in one transaction.
import { SCOPES, type Scope } from '@backbone/contracts';
import {
  createApiKey,
  findPartner,
  inTransaction,
  recordAudit,
  revokeApiKey,
  setApiKeyRateLimit,
  withTransaction,
  type CreatedApiKey,
  type Db,
  type Pool,
} from '@backbone/db';
import { auditChanges, checkKeyRateLimit, ValidationError, type AuditActor, type RateLimit } from '@backbone/domain';

/** Where a changed key is announced (packages/publisher keyRevocationsOver: a Redis channel every API listens on). */
export interface KeyRevocations {
  /** How many running processes heard it; null when they could not be told (they see it within AUTH_CACHE_TTL_MS). */
  announce(keyId: string): Promise<number | null>;
}

export interface KeyDeps {
  pool: Pool;
  keyRevocations: KeyRevocations;
}

const isScope = (scope: string): scope is Scope => (SCOPES as readonly string[]).includes(scope);

/** `deps.pool` may be a transaction's client, for a write that joins a larger one (seedOperator). */
export async function createOperatorKey(
  deps: { pool: Db },
  request: {
    accountId: string;
    name: string;
    scopes: readonly string[];
    /** A partner's id or name (any case), for an ota key. */
    partner?: string;
    /** A sandbox key (partner API, OCTO and webhooks in test mode). */
    test?: boolean;
    actor: AuditActor;
  },
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
    const partner = await findPartner(deps.pool, request.accountId, request.partner);
    if (!partner) throw new ValidationError([{ field: 'Partner', message: `The account has no partner '${request.partner}'.` }]);
    partnerId = partner.id;
  }
  return inTransaction(deps.pool, async (client) => {
    const key = await createApiKey(client, request.accountId, { name: request.name, scopes: scopes as Scope[], partnerId, test: request.test ?? false });
    await recordAudit(client, request.accountId, {
      actor: request.actor,
      action: 'key.created',
      subject: { type: 'key', id: key.id, label: key.name },
      changes: {
        Name: { From: null, To: key.name },
        Scopes: { From: null, To: key.scopes },
        ...(key.test ? { Test: { From: null, To: true } } : {}),
        ...(key.partnerId ? { PartnerID: { From: null, To: key.partnerId } } : {}),
      },
    });
    return key;
  });
}

export interface KeyRevocation {
  /** false when the account has no such active key. */
  revoked: boolean;
  /** How many running processes heard the announcement; null when Redis did not answer (they stop within the TTL). */
  heardBy: number | null;
}

/** Revokes a key of this account and announces it to every running API process. */
export async function revokeOperatorKey(deps: KeyDeps, request: { accountId: string; keyId: string; actor: AuditActor }): Promise<KeyRevocation> {
  const revoked = await withTransaction(deps.pool, async (client) => {
    const key = await revokeApiKey(client, request.accountId, request.keyId);
    if (key)
      await recordAudit(client, request.accountId, {
        actor: request.actor,
        action: 'key.revoked',
        subject: { type: 'key', id: request.keyId, label: key.name },
        changes: { Revoked: { From: false, To: true } },
      });
    return key !== null;
  });
  if (!revoked) return { revoked: false, heardBy: null };
  return { revoked: true, heardBy: await deps.keyRevocations.announce(request.keyId) };
}

/** A rate limit as the CLI's list-keys shows it (null: the defaults of the key's scopes). */
const shownLimit = (limit: RateLimit | null) => limit && { PerSecond: limit.perSecond, Burst: limit.burst };

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
export async function setKeyRateLimit(
  deps: KeyDeps,
  request: { accountId: string; key: string; limit: RateLimit | null; actor: AuditActor },
): Promise<KeyRateLimitChange> {
  if (request.limit) checkKeyRateLimit(request.limit);
  const keyId = await withTransaction(deps.pool, async (client) => {
    const key = await setApiKeyRateLimit(client, request.accountId, request.key, request.limit);
    if (!key) return null;
    const changes = auditChanges({ RateLimit: shownLimit(key.previous) }, { RateLimit: shownLimit(request.limit) });
    if (Object.keys(changes).length > 0)
      await recordAudit(client, request.accountId, {
        actor: request.actor,
        action: 'key.rate_limit_changed',
        subject: { type: 'key', id: key.id, label: key.name },
        changes,
      });
    return key.id;
  });
  if (!keyId) return { keyId: null, heardBy: null };
  return { keyId, heardBy: await deps.keyRevocations.announce(keyId) };
}
