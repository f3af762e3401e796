// Shared set-up of the usage API tests: the real app in-process over a fresh schema, a real group-commit writer,
// and a real publisher on this file's Redis prefix.
import { afterAll } from 'vitest';
import { createUsageWriter, type Pool, type UsageWriter } from '@backbone/db';
import { createEventPublisher, type EventPublisher } from '@backbone/publisher';
import { createTestUsageApp } from '@backbone/test-apps/usage-api';
import { createTestAccount, useTestDatabase, useTestRedis, useTestServer, type TestAccount } from '@backbone/testkit';

export { createTestUsageApp, PROBLEM_BASE } from '@backbone/test-apps/usage-api';

export function useUsageApi(options: { poolSize?: number } = {}) {
  const db = useTestDatabase({ poolSize: options.poolSize ?? 20 });
  const redis = useTestRedis();
  let publisher: EventPublisher | undefined;
  let usageWriter: UsageWriter | undefined;
  const server = useTestServer(() => {
    const connection = redis.connection();
    publisher = createEventPublisher({ connection, prefix: redis.prefix });
    usageWriter = createUsageWriter(db.pool);
    return createTestUsageApp({ pool: db.pool, usageWriter, publisher, redisReady: async () => (await connection.ping()) === 'PONG' });
  });
  afterAll(async () => {
    await usageWriter?.drain();
    await publisher?.close();
  });
  return { db, server };
}

/** An account with one key per usage scope (and the all-scopes `key`). */
export interface UsageClient extends TestAccount {
  write: string;
  read: string;
}

export async function createUsageClient(pool: Pool, timeZone = 'UTC'): Promise<UsageClient> {
  const account = await createTestAccount(pool, { timeZone });
  return { ...account, write: await account.keyWith(['usage:write']), read: await account.keyWith(['usage:read']) };
}

export async function countEntries(pool: Pool, accountId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM usage_entries WHERE account_id = $1`, [accountId]);
  return rows[0]!.n;
}

/** Unix seconds of a UTC wall-clock time (month 1-12), computed without the code under test. */
export function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
}
