// PostgreSQL and Redis for the bench: DATABASE_URL / REDIS_URL, else the local servers on their default ports,
// else an embedded PostgreSQL (data kept in bench/.tmp so the 10M-entry load survives between runs) and a
// redis-server from PATH. The bench works in its own database, backbone_bench, so it never meets the tests' data.
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrate } from '@backbone/db';
import { queueOwnerKey } from '@backbone/publisher';
import { canConnectPostgres, canConnectRedis, freePort, startEmbeddedPostgres, startRedisServer, type LocalService } from '@backbone/testkit/local-services';

export const BENCH_DATABASE = 'backbone_bench';

export interface BenchInfrastructure {
  /** URL of the backbone_bench database, migrated. */
  databaseUrl: string;
  redisUrl: string;
  postgresVersion: string;
  redisVersion: string;
  stop(): Promise<void>;
}

async function serverUrl(env: NodeJS.ProcessEnv, tmpDir: string, stops: LocalService[]): Promise<string> {
  if (env.DATABASE_URL) {
    if (!(await canConnectPostgres(env.DATABASE_URL))) throw new Error('DATABASE_URL is set but PostgreSQL does not answer there.');
    return env.DATABASE_URL;
  }
  for (const candidate of ['postgres://postgres@127.0.0.1:5432/postgres', 'postgres://postgres@127.0.0.1:5432/test']) {
    if (await canConnectPostgres(candidate)) return candidate;
  }
  console.log('[bench] no PostgreSQL on 127.0.0.1:5432: starting the embedded one (data in bench/.tmp/postgres)');
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(tmpDir, 'postgres'), port: await freePort(), persistent: true });
  stops.push(embedded);
  return embedded.url;
}

async function redisUrl(env: NodeJS.ProcessEnv, stops: LocalService[]): Promise<string> {
  if (env.REDIS_URL) {
    if (!(await canConnectRedis(env.REDIS_URL))) throw new Error('REDIS_URL is set but Redis does not answer there.');
    return env.REDIS_URL;
  }
  const local = 'redis://127.0.0.1:6379';
  if (await canConnectRedis(local)) return local;
  console.log('[bench] no Redis on 127.0.0.1:6379: starting redis-server from PATH');
  const started = await startRedisServer({ port: await freePort() }).catch((error: Error) => {
    throw new Error(`No Redis: set REDIS_URL, start Redis, or install redis-server (${error.message}).`);
  });
  stops.push(started);
  return started.url;
}

/** Creates backbone_bench on the server when missing (BENCH_DATABASE_URL names another database instead). */
async function benchDatabaseUrl(server: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (env.BENCH_DATABASE_URL) return env.BENCH_DATABASE_URL;
  const url = new URL(server);
  url.pathname = `/${BENCH_DATABASE}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [BENCH_DATABASE]);
    if (rowCount === 0) await admin.query(`CREATE DATABASE ${BENCH_DATABASE}`);
  } finally {
    await admin.end();
  }
  return url.toString();
}

export async function setUpInfrastructure(env: NodeJS.ProcessEnv, tmpDir: string): Promise<BenchInfrastructure> {
  const stops: LocalService[] = [];
  const server = await serverUrl(env, tmpDir, stops);
  const databaseUrl = await benchDatabaseUrl(server, env);
  await migrate({ databaseUrl });
  const redis = await redisUrl(env, stops);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const setting = async (name: string) => (await client.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
  // The settings that move these figures most, recorded next to the version.
  const postgresVersion = `${await setting('server_version')} (shared_buffers ${await setting('shared_buffers')}, synchronous_commit ${await setting('synchronous_commit')}, jit ${await setting('jit')}, autovacuum ${await setting('autovacuum')})`;
  await client.end();
  const connection = new Redis(redis, { maxRetriesPerRequest: 1 });
  const info = await connection.info('server');
  connection.disconnect();
  const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';

  return {
    databaseUrl,
    redisUrl: redis,
    postgresVersion,
    redisVersion,
    stop: async () => {
      for (const service of stops.reverse()) await service.stop().catch(() => undefined);
    },
  };
}

/**
 * One bench at a time per database: each run resets the bench tables and Redis prefixes, so a second run would
 * wreck the first one's figures. Holds a session advisory lock until release() (or until the process dies).
 */
export async function lockBenchDatabase(databaseUrl: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench-lock' });
  await client.connect();
  client.on('error', () => undefined);
  const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(hashtext('backbone-bench')) AS locked`);
  if (!rows[0]!.locked) {
    await client.end();
    throw new Error(
      'Another `npm run bench` is running against this database (it holds the bench lock). Wait for it to finish: runs reset shared tables, so they cannot overlap.',
    );
  }
  return { release: () => client.end() };
}

/**
 * Lets this run's database claim the bench's queue prefixes (all named bench...): the processes of a bench run
 * against another database (BENCH_DATABASE_URL, an embedded PostgreSQL) bound them to that one, and would refuse to
 * start (packages/publisher queue-owner.ts). Called under the bench lock.
 */
export async function releaseBenchQueuePrefixes(redisUrl: string): Promise<void> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', queueOwnerKey('bench*'), 'COUNT', 5000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Deletes every Redis key under a BullMQ prefix: a section's queues start and end empty. */
export async function clearPrefix(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 5000);
    cursor = next;
    if (keys.length > 0) await redis.del(...keys);
  } while (cursor !== '0');
}
