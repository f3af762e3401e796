// withSavepoint: inside a transaction a failing statement undoes only its own work, so the use case can try again
// (a booking reference drawn twice) and still commit what came before; on the pool it adds nothing.
import { describe, expect, it } from 'vitest';
import { withSavepoint, withTransaction } from '@backbone/db';
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
