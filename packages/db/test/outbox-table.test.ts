// The outbox table is vacuumed after a fixed number of changed rows, whatever its size: the relay's poll reads past
// every dead entry of its unsent-rows index, so their number must stay bounded on a large outbox.
import { expect, it } from 'vitest';
import { useTestDatabase } from '@backbone/testkit';

const db = useTestDatabase();

it('outbox_events: autovacuum and analyze every 10,000 changed rows, not a share of the table', async () => {
  const { rows } = await db.pool.query<{ options: string[] }>(`SELECT reloptions AS options FROM pg_class WHERE oid = 'outbox_events'::regclass`);
  expect(rows[0]!.options.sort()).toEqual([
    'autovacuum_analyze_scale_factor=0',
    'autovacuum_analyze_threshold=10000',
    'autovacuum_vacuum_scale_factor=0',
    'autovacuum_vacuum_threshold=10000',
  ]);
});
