// Where the local stack keeps its state: `npm start` writes dev.json in its data directory (the database URL, the
// Redis URL and queue prefix, the base URL and the pid of each process it supervises); the admin CLI and the
// benchmarks read it when DATABASE_URL / REDIS_URL / QUEUE_PREFIX are unset. The data directory is .data/ unless DEV_DATA_DIR names another one (the
// stack's own test runs in a temporary one, so it never touches a developer's .data/).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_QUEUE_PREFIX } from '@backbone/publisher';

type Env = Record<string, string | undefined>;

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export function dataDirOf(env: Env = process.env): string {
  return env.DEV_DATA_DIR ? path.resolve(env.DEV_DATA_DIR) : path.join(repoRoot, '.data');
}

export function devStateFileOf(env: Env = process.env): string {
  return path.join(dataDirOf(env), 'dev.json');
}

export interface DevState {
  databaseUrl: string;
  redisUrl: string;
  /** The BullMQ prefix of the stack's queues (bound to its database: packages/publisher queue-owner.ts). */
  queuePrefix: string;
  baseUrl: string;
  /** Each process's /metrics (its own port, not behind the gateway), by name; empty when METRICS_ENABLED is false. */
  metricsUrls: Record<string, string>;
  /** The pid of each supervised process's current run, by name (partner-api, usage-api, metering-worker, ...). */
  pids: Record<string, number>;
}

export function readDevState(env: Env = process.env): DevState | null {
  const file = devStateFileOf(env);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as DevState;
}

export function resolveDatabaseUrl(env: Env = process.env): string {
  const url = env.DATABASE_URL ?? readDevState(env)?.databaseUrl;
  if (!url) throw new Error('No database: set DATABASE_URL, or run `npm start` first (it records the embedded PostgreSQL in .data/dev.json).');
  return url;
}

export function resolveRedisUrl(env: Env = process.env): string {
  return env.REDIS_URL ?? readDevState(env)?.redisUrl ?? 'redis://127.0.0.1:6379';
}

/** QUEUE_PREFIX, else the running stack's, else BullMQ's default as the deployments use it. */
export function resolveQueuePrefix(env: Env = process.env): string {
  return env.QUEUE_PREFIX || readDevState(env)?.queuePrefix || DEFAULT_QUEUE_PREFIX;
}

/**
 * V8 heap limits for the three APIs, as in docker-compose.yml: without them V8 lets the heap of a busy API grow past
 * 200 MB before collecting (measured: usage API under batch load, 233 MB peak RSS without, 121 MB with), although
 * what is live stays around 30 MB. The young generation keeps 16 MB semi-spaces: with 4 MB, a 1,000-entry batch or a
 * 500-booking sync page outlived several scavenges and was copied into the old generation, and garbage collection
 * took 15% of the usage API's CPU under batch load (API CPU per batch 17-19 ms with 4 MB, 13 ms with 16 MB; partner
 * API CPU per sync page 17.4 ms against 13.4 ms); peak RSS under batch load 148 MB.
 */
export const API_NODE_OPTIONS = '--max-old-space-size=128 --max-semi-space-size=16';
