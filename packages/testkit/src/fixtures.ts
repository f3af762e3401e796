// Per-file fixtures: a fresh PostgreSQL schema with every migration applied, a Redis key prefix of its own,
// and an in-process HTTP harness for the real Express apps.
import { randomBytes } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import type http from 'node:http';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Scope } from '@backbone/contracts';
import './provided-context.js';
import { checkAnswersOf } from './answer-check.js';
import { createAccount, createApiKey, createPool, foldUsageEntries, migrate, quoteIdent, type Account, type Pool } from '@backbone/db';
import { createHttpServer, type ServerTimeouts } from '@backbone/http';

export interface TestDatabase {
  /** Valid after beforeAll. */
  pool: Pool;
  schema: string;
  databaseUrl: string;
  /** A URL whose connections use this file's schema (for child processes). */
  urlWithSchema: string;
}

/** Gives the calling test file its own schema, migrated, and drops it afterwards. */
export function useTestDatabase(options: { poolSize?: number } = {}): TestDatabase {
  const databaseUrl = inject('databaseUrl');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = { schema, databaseUrl, urlWithSchema: url.toString() } as unknown as TestDatabase;
  beforeAll(async () => {
    await migrate({ databaseUrl, schema });
    db.pool = createPool({ connectionString: databaseUrl, schema, max: options.poolSize ?? 20, applicationName: 'backbone-test' });
  });
  afterAll(async () => {
    await db.pool?.end();
    const admin = createPool({ connectionString: databaseUrl, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    await admin.end();
  });
  return db;
}

export interface TestRedis {
  redisUrl: string;
  /** BullMQ prefix unique to this file. */
  prefix: string;
  connection(): Redis;
}

export function useTestRedis(): TestRedis {
  const redisUrl = inject('redisUrl');
  const prefix = `test-${randomBytes(6).toString('hex')}`;
  const opened: Redis[] = [];
  afterAll(async () => {
    const redis = new Redis(redisUrl);
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
    redis.disconnect();
    for (const connection of opened) connection.disconnect();
  });
  return {
    redisUrl,
    prefix,
    connection() {
      const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
      opened.push(redis);
      return redis;
    },
  };
}

export interface TestAccount {
  account: Account;
  /** Secret of a key with every scope. */
  key: string;
  keyWith(scopes: Scope[]): Promise<string>;
}

export async function createTestAccount(pool: Pool, options: { name?: string; timeZone?: string; scopes?: Scope[] } = {}): Promise<TestAccount> {
  const account = await createAccount(pool, { name: options.name ?? 'Test operator', timeZone: options.timeZone ?? 'UTC' });
  const keyWith = async (scopes: Scope[]) => (await createApiKey(pool, account.id, { name: 'test', scopes })).secret;
  const key = await keyWith(options.scopes ?? ['ota', 'usage:write', 'usage:read', 'platform:events', 'admin']);
  return { account, key, keyWith };
}

/**
 * Folds until the fold finds nothing new: every usage entry committed before the call is then in the rollups. A fold
 * may have to wait for write transactions of other test files (the boundary is the server's): some hold one open for
 * seconds on purpose, longer on a loaded machine, hence the generous ceiling.
 */
export async function foldAllUsage(pool: Pool, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await foldUsageEntries(pool);
    if (outcome.result === 'idle') return;
    if (Date.now() > deadline) throw new Error(`usage entries still unfolded after ${timeoutMs} ms (last fold: ${outcome.result})`);
    if (outcome.result !== 'folded') await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves an Express app on a free loopback port for the duration of the test file, on the server the apps run on
 * (with Node's default timeouts unless `timeouts` are given).
 */
export function useTestServer(makeApp: () => Express, options: { timeouts?: ServerTimeouts } = {}): TestServer {
  let served: TestServer | undefined;
  const server: TestServer = { url: '', close: () => served?.close() ?? Promise.resolve() };
  beforeAll(async () => {
    served = await serveTestApp(makeApp(), options);
    server.url = served.url;
  });
  afterAll(() => server.close());
  return server;
}

/** Serves an Express app on a free loopback port until close(), for a test that needs a server of its own. */
export async function serveTestApp(app: Express, options: { timeouts?: ServerTimeouts } = {}): Promise<TestServer> {
  const instance: http.Server = createHttpServer(app, options.timeouts);
  checkAnswersOf(instance);
  await new Promise<void>((resolve) => instance.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(instance.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        instance.close(() => resolve());
        instance.closeAllConnections();
      }),
  };
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

/** A small client for the tests: JSON in, JSON (or problem) out. */
// Tests read arbitrary members of answers; `any` keeps their assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function request<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { key?: string; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(baseUrl + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed as T };
}

// Tests read arbitrary members of answers; `any` keeps their assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface RawResponse extends ApiResponse<any> {
  /** Milliseconds from the last byte sent until the server closed the connection; null if it had not after `timeoutMs`. */
  closedAfterMs: number | null;
}

/**
 * Sends `bytes` exactly as given on a new connection, optionally ends the client's side after them (the server reads
 * EOF), and reads until the server closes the connection or `timeoutMs` passes: for what fetch cannot send.
 */
export async function sendRaw(baseUrl: string, bytes: string | Uint8Array, options: { end?: boolean; timeoutMs?: number } = {}): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const socket = net.connect(Number(url.port), url.hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const sentAt = await new Promise<number>((resolve) => socket.write(bytes, () => resolve(Date.now())));
  if (options.end) socket.end();
  const closedAfterMs = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), options.timeoutMs ?? 10_000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - sentAt);
    });
    // A reset after the answer is still an answer; what arrived is read below.
    socket.on('error', () => undefined);
  });
  socket.destroy();
  const raw = Buffer.concat(chunks).toString('utf8');
  const headEnd = raw.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = (headEnd === -1 ? raw : raw.slice(0, headEnd)).split('\r\n');
  const headers = new Headers();
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  const text = headEnd === -1 ? '' : raw.slice(headEnd + 4);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, text, body, closedAfterMs };
}
