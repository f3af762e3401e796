// The local stack behind `npm start`: PostgreSQL (DATABASE_URL, else the embedded server with data in .data/),
// Redis (REDIS_URL, else the local one, else a redis-server from PATH), migrations, the demo operator (seeded
// once), both APIs, the metering worker and a gateway giving them one base URL. Prints the URL and demo keys.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createPool, migrate } from '@backbone/db';
import { canConnectPostgres, canConnectRedis, startEmbeddedPostgres, startRedisServer, type LocalService } from '@backbone/testkit/local-services';
import { seedDemoOperator, seedDemoOwner } from './admin/demo-seed.js';
import { API_NODE_OPTIONS, dataDir, devStateFile, repoRoot } from './dev-env.js';
import { createGateway } from './gateway.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const log = (message: string) => console.log(`[start] ${message}`);
const services: LocalService[] = [];
const children: ChildProcess[] = [];

async function database(): Promise<string> {
  if (env.DATABASE_URL) {
    if (!(await canConnectPostgres(env.DATABASE_URL))) throw new Error('DATABASE_URL is set but PostgreSQL does not answer there.');
    return env.DATABASE_URL;
  }
  const pgPort = Number(env.EMBEDDED_PG_PORT ?? 54329);
  log(`starting the embedded PostgreSQL on 127.0.0.1:${pgPort} (data in .data/postgres)`);
  const server = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: pgPort, persistent: true }).catch((error: Error) => {
    throw new Error(`The embedded PostgreSQL did not start (${error.message}). Is another stack running on port ${pgPort}? Set EMBEDDED_PG_PORT or DATABASE_URL.`);
  });
  services.push(server);
  return server.url;
}

async function redis(): Promise<string> {
  const url = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await canConnectRedis(url)) return url;
  if (env.REDIS_URL) throw new Error(`REDIS_URL is set but Redis does not answer at ${url}.`);
  log('no Redis on 127.0.0.1:6379; trying redis-server from PATH (data in .data/redis)');
  await mkdir(path.join(dataDir, 'redis'), { recursive: true });
  const server = await startRedisServer({ port: Number(env.EMBEDDED_REDIS_PORT ?? 63790), dataDir: path.join(dataDir, 'redis') }).catch(() => {
    throw new Error('No Redis: nothing answers on 127.0.0.1:6379 and redis-server is not installed. Install it (apt-get install redis-server), start it, or set REDIS_URL.');
  });
  services.push(server);
  return server.url;
}

type DemoKeys = Record<string, string>;

async function demoKeys(databaseUrl: string): Promise<DemoKeys | null> {
  const keysFile = path.join(dataDir, 'demo-keys.json');
  const pool = createPool({ connectionString: databaseUrl, max: 2 });
  try {
    const seeded = await seedDemoOperator(pool);
    if (seeded) {
      // Local development data only (.data/ is ignored by git): the server itself keeps nothing but hashes.
      writeFileSync(keysFile, JSON.stringify(seeded.keys, null, 2), { mode: 0o600 });
      return seeded.keys;
    }
  } finally {
    await pool.end();
  }
  return existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as DemoKeys) : null;
}

/** The demo console owner: created once, its one-time password kept in .data (local development data only). */
async function demoOwner(databaseUrl: string): Promise<{ Email: string; Password: string } | null> {
  const ownerFile = path.join(dataDir, 'demo-console.json');
  const pool = createPool({ connectionString: databaseUrl, max: 2 });
  try {
    const created = await seedDemoOwner(pool);
    if (created) {
      writeFileSync(ownerFile, JSON.stringify(created, null, 2), { mode: 0o600 });
      return created;
    }
  } finally {
    await pool.end();
  }
  return existsSync(ownerFile) ? (JSON.parse(readFileSync(ownerFile, 'utf8')) as { Email: string; Password: string }) : null;
}

function run(name: string, entry: string, extraEnv: Record<string, string>): void {
  const child = spawn(process.execPath, [entry], { cwd: repoRoot, env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      log(`${name} exited (${signal ?? code}); stopping everything`);
      void stop(1);
    }
  });
  children.push(child);
}

async function waitUntilReady(url: string, name: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not become ready at ${url}`);
}

let stopping = false;
async function stop(code: number): Promise<never> {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const service of services.reverse()) await service.stop().catch(() => undefined);
  process.exit(code);
}

async function main(): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const databaseUrl = await database();
  const redisUrl = await redis();
  log('applying migrations');
  await migrate({ databaseUrl });
  const keys = await demoKeys(databaseUrl);
  const owner = await demoOwner(databaseUrl);

  const partnerUrl = `http://127.0.0.1:${port + 1}`;
  const usageUrl = `http://127.0.0.1:${port + 2}`;
  const operatorUrl = `http://127.0.0.1:${port + 3}`;
  const shared = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: env.LOG_LEVEL ?? 'info', HOST: '127.0.0.1' };
  log('bundling the apps');
  const built = spawnSync(process.execPath, ['scripts/build-apps.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the apps failed');
  const api = { ...shared, NODE_OPTIONS: [env.NODE_OPTIONS, API_NODE_OPTIONS].filter(Boolean).join(' ') };
  run('partner-api', 'apps/partner-api/dist/server.js', { ...api, PORT: String(port + 1) });
  run('usage-api', 'apps/usage-api/dist/server.js', { ...api, PORT: String(port + 2) });
  run('operator-api', 'apps/operator-api/dist/server.js', { ...api, PORT: String(port + 3) });
  run('metering-worker', 'apps/metering-worker/dist/main.js', shared);
  await Promise.all([waitUntilReady(partnerUrl, 'partner-api'), waitUntilReady(usageUrl, 'usage-api'), waitUntilReady(operatorUrl, 'operator-api')]);

  const gateway = createGateway({ partnerApi: partnerUrl, usageApi: usageUrl, operatorApi: operatorUrl });
  await new Promise<void>((resolve, reject) => {
    gateway.once('error', reject);
    gateway.listen(port, env.HOST ?? '127.0.0.1', resolve);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  writeFileSync(devStateFile, JSON.stringify({ databaseUrl, redisUrl, baseUrl }, null, 2));

  const ota = keys?.ota ?? '<an ota key: npm run admin -- create-key ...>';
  console.log(`
  Activity backbone is running.

  Base URL     ${baseUrl}
  API docs     ${baseUrl}/docs   (OpenAPI: ${baseUrl}/openapi.json)
  Console      ${baseUrl}/console   ${owner ? `sign in as ${owner.Email} / ${owner.Password}` : '(.data/demo-console.json is missing: npm run admin -- reset-password ...)'}
  Demo keys    ${keys ? Object.entries(keys).map(([name, key]) => `${name.padEnd(10)} ${key}`).join('\n               ') : 'not available (.data/demo-keys.json is missing)'}

  Try it:
    curl -s ${baseUrl}/api/v2/ota/partner/products -H 'Authorization: Bearer ${ota}'

  Stop with Ctrl+C.
`);
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

main().catch(async (error: Error) => {
  console.error(`[start] ${error.message}`);
  await stop(1);
});
