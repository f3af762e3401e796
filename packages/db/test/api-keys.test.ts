import { describe, expect, it } from 'vitest';
import { createApiKey, findActiveApiKey, revokeApiKey } from '@backbone/db';
import { createTestAccount, useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();

describe('API keys', () => {
  it('stores only a hash: the secret finds the key until it is revoked', async () => {
    const { account } = await createTestAccount(db.pool);
    const created = await createApiKey(db.pool, account.id, { name: 'partner', scopes: ['ota'] });
    const stored = await db.pool.query<{ secret_hash: Buffer }>('SELECT secret_hash FROM api_keys WHERE id = $1', [created.id]);
    expect(stored.rows[0]!.secret_hash.toString('utf8')).not.toContain(created.secret);
    expect(await findActiveApiKey(db.pool, created.secret)).toMatchObject({ accountId: account.id, scopes: ['ota'] });
    expect(await revokeApiKey(db.pool, account.id, created.id)).toEqual({ name: 'partner' });
    expect(await findActiveApiKey(db.pool, created.secret)).toBeNull();
  });

  it("never revokes another account's key", async () => {
    const owner = await createTestAccount(db.pool);
    const other = await createTestAccount(db.pool);
    const created = await createApiKey(db.pool, owner.account.id, { name: 'partner', scopes: ['ota'] });
    expect(await revokeApiKey(db.pool, other.account.id, created.id)).toBeNull();
    expect(await findActiveApiKey(db.pool, created.secret)).not.toBeNull();
  });
});
