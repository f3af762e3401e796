// `npm start` (scripts/start.mjs) run as the child process a developer runs, in a data directory and on ports of its
// own, for the tests of the local stack.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canListen } from '../ports.js';
import { repoRoot, type DevState } from '../dev-env.js';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The ceiling for a stack's start (`running`): it bundles the apps and builds the console, applies the migrations and
 * seeds, about 35 s on a quiet machine; on one busy with other work (load 15-25 on 2 cores) several minutes.
 */
export const STACK_START_MS = 480_000;

// Ports are drawn below the kernel's ephemeral range (32768 and up on Linux): a port the OS hands out as free is also
// the local port of the next outgoing connection, so under load another client could take it before the stack binds it.
const QUIET_PORTS = { from: 20_000, to: 32_000 };

/** A free port nobody is handed by the kernel for an outgoing connection (see QUIET_PORTS). */
export async function quietPort(followers: readonly number[] = []): Promise<number> {
  for (;;) {
    const port = QUIET_PORTS.from + Math.floor(Math.random() * (QUIET_PORTS.to - QUIET_PORTS.from));
    if ((await Promise.all([port, ...followers.map((offset) => port + offset)].map((p) => canListen(p, '127.0.0.1')))).every(Boolean)) return port;
  }
}

/** A port for the gateway whose followers are free too: the APIs at + 1 to + 3, the local mail catcher at + 25, the processes' metrics servers at + 101 to + 107. */
export const stackPort = (): Promise<number> => quietPort([1, 2, 3, 25, 101, 102, 103, 104, 105, 106, 107]);

/** A temporary data directory the embedded PostgreSQL can use: where we are root, it runs as the 'postgres' user. */
export async function stackDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'backbone-stack-'));
  await chmod(dir, 0o755);
  return dir;
}

export interface Stack {
  child: ChildProcess;
  dataDir: string;
  /** What it wrote so far, stdout and stderr. */
  output(): string;
  /** Its dev.json (null before it is running). */
  state(): DevState | null;
  exited: Promise<[number | null, NodeJS.Signals | null]>;
  /** Resolves once it is running (dev.json written); rejects when it ends first or takes longer than timeoutMs. */
  running(timeoutMs: number): Promise<DevState>;
  /** SIGTERM, and its exit. */
  stop(): Promise<[number | null, NodeJS.Signals | null]>;
}

/** Starts `npm start` with the test's environment and `env` on top; a variable set to undefined is left out. */
export function startStack(dataDir: string, env: Record<string, string | undefined>): Stack {
  // A stack that ran here before left its dev.json: this one is running once it wrote its own.
  rmSync(path.join(dataDir, 'dev.json'), { force: true });
  const merged = Object.fromEntries(Object.entries({ ...process.env, DEV_DATA_DIR: dataDir, ...env }).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, ['scripts/start.mjs'], { cwd: repoRoot, env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let ended = false;
  void exited.then(() => (ended = true));
  const state = () => {
    const file = path.join(dataDir, 'dev.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DevState) : null;
  };
  return {
    child,
    dataDir,
    output: () => output,
    state,
    exited,
    async running(timeoutMs) {
      for (const deadline = Date.now() + timeoutMs; Date.now() < deadline && !ended; await sleep(100)) {
        const current = state();
        if (current?.baseUrl) return current;
      }
      throw new Error(`the stack ${ended ? 'ended' : `was not running after ${timeoutMs} ms`}; it said:\n${output.slice(-4000)}`);
    },
    async stop() {
      if (!ended) child.kill('SIGTERM');
      return exited;
    },
  };
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  said: () => string = () => '',
): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(100)) {
    const value = await probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${said() ? `; the stack said:\n${said().slice(-4000)}` : ''}`);
}
