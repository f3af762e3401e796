// Where the local stack keeps its state: `npm start` writes .data/dev.json (the embedded PostgreSQL's URL, the
// Redis URL, the base URL); the admin CLI and the benchmarks read it when DATABASE_URL / REDIS_URL are unset.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('..', import.meta.url));
export const dataDir = fileURLToPath(new URL('../.data', import.meta.url));
export const devStateFile = fileURLToPath(new URL('../.data/dev.json', import.meta.url));

export interface DevState {
  databaseUrl: string;
  redisUrl: string;
  baseUrl: string;
}

export function readDevState(): DevState | null {
  if (!existsSync(devStateFile)) return null;
  return JSON.parse(readFileSync(devStateFile, 'utf8')) as DevState;
}

export function resolveDatabaseUrl(env: Record<string, string | undefined> = process.env): string {
  const url = env.DATABASE_URL ?? readDevState()?.databaseUrl;
  if (!url) throw new Error('No database: set DATABASE_URL, or run `npm start` first (it records the embedded PostgreSQL in .data/dev.json).');
  return url;
}

export function resolveRedisUrl(env: Record<string, string | undefined> = process.env): string {
  return env.REDIS_URL ?? readDevState()?.redisUrl ?? 'redis://127.0.0.1:6379';
}

/**
 * V8 heap limits for the two APIs, as in docker-compose.yml: without them V8 lets the heap of a busy API grow past
 * 200 MB before collecting (measured: usage API under batch load, 233 MB peak RSS without, 121 MB with), although
 * what is live stays around 30 MB.
 */
export const API_NODE_OPTIONS = '--max-old-space-size=128 --max-semi-space-size=4';
