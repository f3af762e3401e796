// The PostgreSQL pool and the transaction helper every repository uses.
import pg from 'pg';
import { isLostInFlight, OutcomeUnknownError } from './database-unavailable.js';

// int8 columns (ids, counts) fit in a JS number here; numeric stays a string so usage sums stay exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export type Pool = pg.Pool;
export type Db = pg.Pool | pg.PoolClient;
export type DbClient = pg.PoolClient;

export interface PoolOptions {
  connectionString: string;
  max?: number;
  /** Postgres schema to use instead of public (tests give each file its own). */
  schema?: string;
  applicationName?: string;
  /** How long a query may wait for a connection (a free one of the pool, or a new one); 10 s unless given. */
  connectTimeoutMs?: number;
}

/**
 * Without a bound, a query waited for a connection for ever: a server that accepts but never answers (hung, or behind
 * a dead proxy) or a pool whose every connection is stuck left each request hanging until the client gave up, and the
 * process piling up requests. Past this wait the query fails as unavailable, which the APIs answer with 503 and
 * Retry-After. Ten seconds is far above any wait for a free connection under load here (at most tens of ms).
 */
const CONNECT_TIMEOUT_MS = 10_000;

export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 20,
    // node-postgres closes a connection idle for 10 s by default; a burst after a lull then opened new server processes
    // together, each paying its catalog caches and its first plans of every statement again (the first seconds after
    // a pause answered in hundreds of ms). An idle connection costs PostgreSQL little.
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    application_name: options.applicationName ?? 'activity-backbone',
    // JIT compilation pays off for long analytical queries, not for these short indexed ones: planner guesses on
    // batch inserts and multi-range sums crossed jit_above_cost and cost 50-150 ms per statement.
    options: ['-c jit=off', ...(options.schema ? [`-c search_path=${quoteIdent(options.schema)}`] : [])].join(' '),
  });
  // An idle client losing its connection must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  // Nor may a checked-out one: pg-pool listens for errors only while a client is idle, and a client whose server
  // process ends between two statements of a transaction (a restart, pg_terminate_backend) emits 'error', which
  // without a listener is an uncaught exception. Its next query fails instead (isDatabaseUnavailable), and the pool
  // discards it on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}

export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Runs `work` in one transaction: commit when it resolves, roll back when it throws. A connection lost while the COMMIT
 * was on its way is an OutcomeUnknownError: the server may have committed (lost before it: rolled back, as any error).
 */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    try {
      await client.query('COMMIT');
    } catch (error) {
      if (isLostInFlight(error)) throw new OutcomeUnknownError(error);
      throw error;
    }
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Runs `work` in the transaction `db` already is, or in a new one on the pool. */
export function inTransaction<T>(db: Db, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return db instanceof pg.Pool ? withTransaction(db, work) : work(db);
}

/**
 * Runs `work` so that its failure undoes only its own statements: under a savepoint on a transaction's client, as it
 * is on the pool (where every statement is its own transaction).
 */
export async function withSavepoint<T>(db: Db, work: (db: Db) => Promise<T>): Promise<T> {
  if (db instanceof pg.Pool) return work(db);
  await db.query('SAVEPOINT work');
  try {
    const result = await work(db);
    await db.query('RELEASE SAVEPOINT work');
    return result;
  } catch (error) {
    await db.query('ROLLBACK TO SAVEPOINT work');
    throw error;
  }
}

export async function isDatabaseReachable(pool: pg.Pool): Promise<boolean> {
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}

/**
 * The SQL condition that makes the current transaction commit asynchronously: put it in the WHERE of the statement
 * that takes a contended row lock (a timeslot's counter), so that the lock is released as soon as the commit record
 * is written instead of after the disk flush. Row locks are held until commit, and a hot timeslot's bookings queue
 * on its row, so a synchronous commit capped one timeslot at one booking per WAL flush (about 350/s on this class of
 * disk). The caller must then call awaitDurable before it tells anyone the change happened.
 */
export const COMMIT_WITHOUT_FLUSH = `set_config('synchronous_commit', 'off', true) = 'off'`;

/**
 * Returns once everything committed before the call is on disk (and, with synchronous replication, on the standbys
 * the server's synchronous_commit asks for). A transactional logical-decoding message is the smallest write that
 * makes a commit flush the WAL (a transaction that wrote nothing commits without a flush); the WAL is flushed in
 * order, so every earlier commit record, those made without flush included, is flushed with it. Concurrent callers
 * share flushes (group commit). The message itself is ignored by everything but logical decoding.
 */
export async function awaitDurable(db: Db): Promise<void> {
  await db.query({ name: 'await-durable', text: `SELECT pg_logical_emit_message(true, 'backbone-durable', '')` });
}
