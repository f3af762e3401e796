// Applies the versioned SQL migrations in ../migrations with node-pg-migrate; every service runs it at start,
// and the migration lock makes concurrent starts safe.
import { createRequire } from 'node:module';
import path from 'node:path';
import { runner } from 'node-pg-migrate';

// Resolved through the package name, not this file's location, so it also holds inside a bundled app.
export const migrationsDir = path.join(path.dirname(createRequire(import.meta.url).resolve('@backbone/db/package.json')), 'migrations');

export interface MigrateOptions {
  databaseUrl: string;
  schema?: string;
  log?: (message: string) => void;
  /** Applies only the migrations up to this one's timestamp (its file name's number): for tests of a data migration. */
  until?: number;
}

const LOCK_WAIT_MS = 60_000;

/** Applies pending migrations. */
export async function migrate(options: MigrateOptions): Promise<void> {
  return whenUnlocked(() => runMigrations(options));
}

/** Runs the down migration of the last one applied: an operator's rollback (the services only ever migrate up). */
export async function undoLastMigration(options: { databaseUrl: string; schema?: string }): Promise<void> {
  const schema = options.schema ?? 'public';
  await whenUnlocked(() =>
    runner({
      databaseUrl: options.databaseUrl,
      dir: migrationsDir,
      direction: 'down',
      count: 1,
      migrationsTable: 'pgmigrations',
      schema,
      singleTransaction: true,
      log: () => undefined,
      noLock: false,
    }),
  );
}

/** Runs `run`; when another process holds the migration lock, waits for it instead of failing. */
async function whenUnlocked<T>(run: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      return await run();
    } catch (error) {
      const locked = (error as Error).message.includes('Another migration is already running');
      if (!locked || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
    }
  }
}

async function runMigrations(options: MigrateOptions): Promise<void> {
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
    ...(options.until === undefined ? {} : { count: options.until, timestamp: true }),
    noLock: false,
  });
}
