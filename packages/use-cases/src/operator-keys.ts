// API keys made and revoked from the console: a key is created with its secret shown once (an ota key gets a partner
// of its own in the same statement); revoking another account's or an already revoked key is a 404.
import type { Scope } from '@backbone/contracts';
import { createApiKey, revokeApiKey, type CreatedApiKey, type Pool } from '@backbone/db';
import { notFound } from '@backbone/domain';

export function createOperatorKey(uow: { pool: Pool }, request: { accountId: string; name: string; scopes: Scope[] }): Promise<CreatedApiKey> {
  return createApiKey(uow.pool, request.accountId, { name: request.name, scopes: request.scopes });
}

export async function revokeOperatorKey(uow: { pool: Pool }, request: { accountId: string; keyId: string }): Promise<void> {
  if (!(await revokeApiKey(uow.pool, request.accountId, request.keyId))) throw notFound('API key');
}
