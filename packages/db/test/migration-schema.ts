// A schema of its own for a test of a data migration: the test migrates it up to the migration before, writes rows
// as they were then, and migrates the rest (migrate's `until`). Dropped after the file.
import { randomUUID } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import '@backbone/testkit';
import { createPool, migrate, quoteIdent, undoLastMigration, type Pool } from '../src/index.js';

export interface MigrationSchema {
  pool: Pool;
  /** Applies the migrations up to this one's timestamp, or all of them. */
  migrateUntil: (until?: number) => Promise<void>;
  /** Runs the down migration of the last applied migration (the services have no down path; an operator's rollback). */
  undoLast: () => Promise<void>;
}

export function useMigrationSchema(): MigrationSchema {
  const databaseUrl = inject('databaseUrl');
  const schema = `t_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = createPool({ connectionString: databaseUrl, schema, max: 2 });
  afterAll(async () => {
    await pool.end();
    const admin = createPool({ connectionString: databaseUrl, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await admin.end();
  });
  return {
    pool,
    migrateUntil: (until) => migrate({ databaseUrl, schema, ...(until === undefined ? {} : { until }) }),
    undoLast: () => undoLastMigration({ databaseUrl, schema }),
  };
}
