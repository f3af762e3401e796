// Applies the versioned SQL migrations in ../migrations with node-pg-migrate; every service runs it at start,
// and the migration lock makes concurrent starts safe.
import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';

export const migrationsDir = fileURLToPath(new URL('../migrations', import.meta.url));

export interface MigrateOptions {
  databaseUrl: string;
  schema?: string;
  log?: (message: string) => void;
}

export async function migrate(options: MigrateOptions): Promise<void> {
  const schema = options.schema ?? 'public';
  await runner({
    databaseUrl: options.databaseUrl,
    dir: migrationsDir,
    direction: 'up',
    migrationsTable: 'pgmigrations',
    schema,
    createSchema: schema !== 'public',
    checkOrder: true,
    singleTransaction: true,
    log: options.log ?? (() => undefined),
    noLock: false,
  });
}
