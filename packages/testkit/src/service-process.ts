// A service run as its own process (`node --import tsx <entry>`), as production runs it: for what only a real process
// shows, such as what reaches its stdout and when, and what it does on a signal.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach } from 'vitest';
import type { TestDatabase } from './fixtures.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export interface LogLine {
  /** The parsed JSON line. */
  line: Record<string, unknown>;
}

export interface ServiceProcess {
  child: ChildProcess;
  /** Every JSON line read from stdout so far, in order. */
  lines(): LogLine[];
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  /**
   * The first line matching `predicate`, waiting up to `timeoutMs` for it (by default 120 s: a service compiled by tsx
   * on start is listening after about 3 s on a quiet machine, after over 30 s on a loaded one).
   */
  waitForLine(what: string, predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Spawns services for the calling test file; any still running after the file are killed, or after each test with
 * `killAfter: 'each test'`: for services a test starts for itself, such as workers, one that a timed-out test left
 * running would take the next test's jobs.
 */
export function useServiceProcesses(options: { killAfter: 'the file' | 'each test' } = { killAfter: 'the file' }): {
  spawn(entry: string, env: Record<string, string>): ServiceProcess;
} {
  const spawned = new Set<ChildProcess>();
  (options.killAfter === 'each test' ? afterEach : afterAll)(() => {
    for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    spawned.clear();
  });
  return {
    spawn(entry, env) {
      const child = spawn(process.execPath, ['--import', 'tsx', entry], {
        cwd: repoRoot,
        // A metrics server on any free port unless the test names one: processes of parallel test files never collide.
        env: { PATH: process.env.PATH ?? '', METRICS_PORT: '0', METRICS_HOST: '127.0.0.1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      spawned.add(child);
      const lines: LogLine[] = [];
      let output = '';
      let partial = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const parts = (partial + chunk.toString()).split('\n');
        partial = parts.pop() ?? '';
        for (const text of parts) {
          try {
            lines.push({ line: JSON.parse(text) as Record<string, unknown> });
          } catch {
            // Not a log line (tsx or Node warnings); kept in output() only.
          }
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      return {
        child,
        lines: () => lines,
        output: () => output,
        async waitForLine(what, predicate, timeoutMs = 120_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const found = lines.find((l) => predicate(l.line));
            if (found) return found;
            if (child.exitCode !== null || Date.now() > deadline) {
              throw new Error(
                `no log line ${what} (${child.exitCode === null ? 'timed out' : `exited with ${child.exitCode}`}); output:\n${output.slice(-3000)}`,
              );
            }
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        },
        exited,
      };
    },
  };
}

export interface WorkerProcesses {
  /** Runs the worker on the test file's schema (a pool of 5, logs at info), with `env` added or overriding. */
  spawn: (db: TestDatabase, env: Record<string, string>) => ServiceProcess;
  /** Waits until the worker logs "<title> running" (3 s on a quiet machine, over 30 s on a loaded one: tsx compiles it first). */
  untilRunning: (worker: ServiceProcess) => Promise<void>;
}

/**
 * A worker's main.ts (`entry`, from the repository's root) run as its own process, the way it runs in production: for
 * SIGKILL and SIGTERM. Processes a test left running are killed after it: one that timed out goes on in the
 * background, and its worker would take the next test's jobs (a SIGTERM test then saw its own worker exit at once,
 * with nothing active).
 */
export function useWorkerProcesses(entry: string, title: string): WorkerProcesses {
  const services = useServiceProcesses({ killAfter: 'each test' });
  const running = `${title} running`;
  return {
    spawn: (db, env) =>
      services.spawn(entry, { DATABASE_URL: db.urlWithSchema, DATABASE_SCHEMA: db.schema, DATABASE_POOL_SIZE: '5', LOG_LEVEL: 'info', ...env }),
    untilRunning: async (worker) => {
      await worker.waitForLine(`"${running}"`, (line) => line.msg === running);
    },
  };
}

export interface SlowRequest {
  /**
   * Resolves once the server has taken the request (its `100 Continue` came: Node writes it as it hands the request to
   * the app) and the first part of the body is sent: from then on the request is in flight at the server.
   */
  sentFirstPart: Promise<void>;
  /** Sends the rest of the body and resolves with the answer. */
  finish(): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>;
  /** Closes the client's keep-alive connection (left open until then, as a busy client's would be). */
  close(): void;
}

/**
 * A request on a keep-alive connection whose body arrives in parts: the first once the server has taken the request,
 * the rest on finish(). `Expect: 100-continue` tells when the server has it, whatever the machine's load.
 */
export function sendSlowly(baseUrl: string, method: string, path: string, options: { headers: Record<string, string>; parts: string[] }): SlowRequest {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(baseUrl);
  const body = options.parts.join('');
  const req = http.request({
    agent,
    host: url.hostname,
    port: url.port,
    method,
    path,
    headers: { ...options.headers, 'content-length': String(Buffer.byteLength(body)), expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  const [first = '', ...rest] = options.parts;
  const sentFirstPart = new Promise<void>((resolve, reject) => {
    req.once('continue', () => req.write(first, () => resolve()));
    // An answer before the 100 (a refusal from the headers alone) means the request never got in flight.
    answer.then(
      (res) => reject(new Error(`answered ${res.status} before taking the body: ${res.text}`)),
      (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
    );
  });
  req.flushHeaders();
  return {
    sentFirstPart,
    async finish() {
      for (const part of rest) req.write(part);
      req.end();
      return answer;
    },
    close: () => agent.destroy(),
  };
}
