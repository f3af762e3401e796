// API keys made from the console: created with the secret shown once (an ota key gets a partner of its own in the same
// statement). Revoking is packages/http's revokeKey, which also announces the revocation to every running API.
import type { Scope } from '@backbone/contracts';
import { createApiKey, type CreatedApiKey, type Pool } from '@backbone/db';

export function createOperatorKey(uow: { pool: Pool }, request: { accountId: string; name: string; scopes: Scope[] }): Promise<CreatedApiKey> {
  return createApiKey(uow.pool, request.accountId, { name: request.name, scopes: request.scopes });
}
