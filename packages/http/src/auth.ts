// Bearer API keys and scopes. A key belongs to one account; its account id travels with every request
// into the domain and the repositories, which is what keeps tenants apart.
import type { NextFunction, Request, Response } from 'express';
import type { Scope } from '@backbone/contracts';
import { findActiveApiKey, type ApiKeyRecord, type Pool } from '@backbone/db';
import { HttpProblem } from './problems.js';

export interface AuthContext {
  keyId: string;
  accountId: string;
  accountTimeZone: string;
  scopes: readonly Scope[];
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/]{1,512}=*)$/;
const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="api"' };

export interface KeyVerifier {
  verify(secret: string): Promise<AuthContext | null>;
}

/** Looks keys up in PostgreSQL, trusting a verified key for `cacheTtlMs` (0 disables the cache). */
export function createKeyVerifier(pool: Pool, cacheTtlMs: number): KeyVerifier {
  const cache = new Map<string, { context: AuthContext; expiresAt: number }>();
  const toContext = (key: ApiKeyRecord): AuthContext => ({ keyId: key.id, accountId: key.accountId, accountTimeZone: key.accountTimeZone, scopes: key.scopes });
  return {
    async verify(secret) {
      const now = Date.now();
      const cached = cacheTtlMs > 0 ? cache.get(secret) : undefined;
      if (cached && cached.expiresAt > now) return cached.context;
      const key = await findActiveApiKey(pool, secret);
      if (!key) {
        cache.delete(secret);
        return null;
      }
      const context = toContext(key);
      if (cacheTtlMs > 0) {
        if (cache.size > 10_000) cache.clear();
        cache.set(secret, { context, expiresAt: now + cacheTtlMs });
      }
      return context;
    },
  };
}

export function authenticate(verifier: KeyVerifier) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    if (!header) throw new HttpProblem('unauthorized', 'An API key is required: send Authorization: Bearer <API_KEY>.', {}, CHALLENGE);
    const match = BEARER.exec(header);
    if (!match) throw new HttpProblem('unauthorized', 'The Authorization header must be of the form: Bearer <API_KEY>.', {}, CHALLENGE);
    const context = await verifier.verify(match[1]!);
    if (!context) throw new HttpProblem('unauthorized', 'The API key is unknown or has been revoked.', {}, { 'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"' });
    res.locals.auth = context;
    next();
  };
}

export function requireScope(scope: Scope) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const context = authOf(res);
    if (!context.scopes.includes(scope)) throw new HttpProblem('forbidden', `This API key lacks the '${scope}' permission.`);
    next();
  };
}

export function authOf(res: Response): AuthContext {
  const context = res.locals.auth as AuthContext | undefined;
  if (!context) throw new Error('authOf() called on a route without authenticate()');
  return context;
}
