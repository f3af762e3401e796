// Keeps the local stack's processes running, as an orchestrator does in production: a process that ends without
// being asked to is started again after a backoff, and logged. One that keeps ending right after its start (a bad
// config, a missing database) is given up on: then everything is stopped, so a broken stack fails
// once and says why instead of flapping forever. A port another program holds is checked before each start and stops
// everything at once, saying which port and which variable moves it. Stopping is orderly: last added first (the apps
// before the databases they use).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { lastLineOf, watchChild, type ProcessRun } from '@backbone/testkit/local-services';
import { portInUse, type PortClaim } from './ports.js';

export interface Service {
  name: string;
  /** The ports it listens on: each must be free before every start. */
  ports?: readonly PortClaim[];
  /** Starts one run; resolves once the process is up. Called again for every restart. */
  start(): Promise<ProcessRun>;
}

export interface SupervisorOptions {
  log(message: string): void;
  /** Called once everything was stopped because a service kept failing right after its start. */
  onGiveUp(reason: string): void;
  /** Called with the pid of every run, restarts included. */
  onStart?(name: string, pid: number): void;
  /** Delay before a restart: restartDelayMs, doubled for each quick exit in a row, at most maxRestartDelayMs. */
  restartDelayMs?: number;
  maxRestartDelayMs?: number;
  /** A run that ends (or fails to start) within quickExitMs of its start is a quick exit; maxQuickExits in a row give up. */
  quickExitMs?: number;
  maxQuickExits?: number;
  /** The clock a run's length is read from (Date.now); a test passes one it moves itself. */
  now?: () => number;
}

export interface Supervisor {
  /** Starts the service and keeps it running; resolves once its first run is up, rejects if it is given up on first. */
  add(service: Service): Promise<void>;
  /** The pid of each service's current run. */
  pids(): Record<string, number>;
  /** Stops every service, last added first; the same promise for every caller. */
  stop(): Promise<void>;
}

interface Supervised {
  service: Service;
  run: ProcessRun | null;
  starting: Promise<ProcessRun> | null;
  wake: (() => void) | null;
}

export function createSupervisor(options: SupervisorOptions): Supervisor {
  const { restartDelayMs = 200, maxRestartDelayMs = 5000, quickExitMs = 5000, maxQuickExits = 5, now = Date.now } = options;
  const supervised: Supervised[] = [];
  let stopping: Promise<void> | null = null;

  function stop(): Promise<void> {
    stopping ??= (async () => {
      for (const entry of [...supervised].reverse()) {
        entry.wake?.();
        const run = entry.run ?? (await entry.starting?.catch(() => null));
        await run?.stop();
        entry.run = null;
      }
    })();
    return stopping;
  }

  /** One run: starts it, waits for its end, says how it ended (null when the supervisor is stopping). */
  async function runOnce(entry: Supervised, isUp: (pid: number) => void): Promise<string | null> {
    let run: ProcessRun;
    try {
      entry.starting = entry.service.start();
      run = entry.run = await entry.starting;
    } catch (error) {
      return `did not start: ${(error as Error).message}`;
    } finally {
      entry.starting = null;
    }
    if (stopping) return null; // stop() stops this run: it waited for the start
    isUp(run.pid);
    const ended = await run.exited;
    entry.run = null;
    return ended;
  }

  async function keepRunning(entry: Supervised, firstRun: { resolve(): void; reject(error: Error): void }): Promise<void> {
    const { name } = entry.service;
    let quickExits = 0;
    while (!stopping) {
      // Not a failure to retry: a port another program holds stays held.
      const taken = await portInUse(entry.service.ports ?? []);
      if (stopping) return; // stop() went past this service while it was checking: start nothing
      if (taken) {
        firstRun.reject(taken);
        await stop();
        options.onGiveUp(taken.message);
        return;
      }
      const startedAt = now();
      const ended = await runOnce(entry, (pid) => {
        options.onStart?.(name, pid);
        firstRun.resolve();
      });
      if (ended === null || stopping) return;
      quickExits = now() - startedAt < quickExitMs ? quickExits + 1 : 0;
      if (quickExits >= maxQuickExits) {
        const reason = `${name} keeps failing right after its start: it ended within ${quickExitMs / 1000} s of starting ${quickExits} times in a row (last: ${ended}); stopping everything`;
        firstRun.reject(new Error(reason));
        await stop();
        options.onGiveUp(reason);
        return;
      }
      const delay = Math.min(restartDelayMs * 2 ** Math.max(quickExits - 1, 0), maxRestartDelayMs);
      options.log(`${name} ended (${ended}); restarting it in ${delay} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        entry.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      entry.wake = null;
    }
  }

  return {
    add(service) {
      if (stopping) return Promise.reject(new Error(`not starting ${service.name}: the stack is stopping`));
      const entry: Supervised = { service, run: null, starting: null, wake: null };
      supervised.push(entry);
      return new Promise<void>((resolve, reject) => void keepRunning(entry, { resolve, reject }));
    },
    pids() {
      return Object.fromEntries(supervised.flatMap((entry) => (entry.run ? [[entry.service.name, entry.run.pid]] : [])));
    },
    stop,
  };
}

/** A command run as a supervised service: stopped with SIGTERM, its output passed through to ours. */
export function commandService(name: string, command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Service {
  return {
    name,
    async start() {
      const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
      await once(child, 'spawn');
      const lastLine = lastLineOf({ from: child.stdout, to: process.stdout }, { from: child.stderr, to: process.stderr });
      return watchChild(child, { lastOutput: () => readableLogLine(lastLine()) });
    },
  };
}

/** The apps log pino JSON; of such a line, its message and its error's say why (the stack trace is in the log above). */
function readableLogLine(line: string): string {
  try {
    const entry = JSON.parse(line) as { msg?: unknown; err?: { message?: unknown } };
    return [entry.msg, entry.err?.message].filter((part) => typeof part === 'string').join(': ') || line;
  } catch {
    return line;
  }
}
