// withSavepoint: inside a transaction a failing statement undoes only its own work, so the use case can try again
// (a booking reference drawn twice) and still commit what came before; on the pool it adds nothing. awaitDurable:
// a commit made without flush is on disk once it returns.
import { describe, expect, it } from 'vitest';
import { awaitDurable, COMMIT_WITHOUT_FLUSH, withSavepoint, withTransaction } from '@backbone/db';
import { useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();

describe('withSavepoint', () => {
  it('in a transaction: a unique violation under the savepoint is undone alone; the transaction goes on and commits', async () => {
    await db.pool.query('CREATE TABLE savepoint_probe (id int PRIMARY KEY)');
    await withTransaction(db.pool, async (client) => {
      await client.query('INSERT INTO savepoint_probe VALUES (1)');
      await expect(withSavepoint(client, (inner) => inner.query('INSERT INTO savepoint_probe VALUES (2), (1)'))).rejects.toMatchObject({ code: '23505' });
      await withSavepoint(client, (inner) => inner.query('INSERT INTO savepoint_probe VALUES (3)'));
    });
    const { rows } = await db.pool.query<{ id: number }>('SELECT id FROM savepoint_probe ORDER BY id');
    expect(rows.map((r) => r.id)).toEqual([1, 3]);
  });

  it('on the pool: runs the work as it is (no transaction block to mark)', async () => {
    const { rows } = await withSavepoint(db.pool, (inner) => inner.query<{ one: number }>('SELECT 1 AS one'));
    expect(rows).toEqual([{ one: 1 }]);
  });
});

describe('awaitDurable', () => {
  it('after commits made without flush, returns only once the WAL is flushed past them', async () => {
    await db.pool.query('CREATE TABLE durable_probe (id int)');
    const client = await db.pool.connect();
    try {
      // Twenty rounds: a no-op in place of awaitDurable would lose the race to the WAL writer at least once.
      for (let i = 0; i < 20; i++) {
        await client.query(`INSERT INTO durable_probe SELECT $1 WHERE ${COMMIT_WITHOUT_FLUSH}`, [i]);
        const { rows: written } = await client.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
        await awaitDurable(db.pool);
        const { rows } = await client.query<{ flushed: boolean }>('SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS flushed', [written[0]!.lsn]);
        expect(rows[0]!.flushed).toBe(true);
      }
      // The setting was the statement's own: the session commits with flush again.
      expect((await client.query<{ synchronous_commit: string }>('SHOW synchronous_commit')).rows[0]!.synchronous_commit).toBe('on');
    } finally {
      client.release();
    }
  });
});
