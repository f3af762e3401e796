// The processes under test: each app and ceiling runs as its own child process so its resident memory can be
// sampled from /proc, and every child is stopped when the bench ends, fails or is interrupted (no orphans).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ManagedProcess {
  name: string;
  pid: number;
  logFile: string;
  /** Peak resident set size seen so far, in MiB (max of the sampled VmRSS and the kernel's VmHWM). */
  peakRssMiB(): number;
  stop(): Promise<void>;
  exited(): boolean;
  /** How it ended ('' while running). */
  exitReason(): string;
}

/** Fails the section when a process under test died (a crash, or something outside the bench killed it). */
export function ensureRunning(...procs: ManagedProcess[]): void {
  for (const proc of procs) {
    if (proc.exited()) throw new Error(`${proc.name} stopped in the middle of the run (${proc.exitReason()}). Last log lines:\n${tail(proc.logFile)}`);
  }
}

const running = new Set<ChildProcess>();
const peaks = new Map<string, number>();

/** Peak RSS per process name over the whole run (a name started twice keeps the higher peak). */
export function peakMemory(): ReadonlyMap<string, number> {
  return peaks;
}

function readStatusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

// Kernel clock ticks per second, the unit of utime and stime in /proc/<pid>/stat.
let clockTicks: number | undefined;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone or when /proc cannot be read. */
export function cpuSecondsOf(pid: number): number {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    // The command name (field 2) may hold spaces; the fields after its closing parenthesis start at field 3.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return 0;
  }
}

export interface StartOptions {
  name: string;
  /** Bundle (.js) relative to the repository root, run with plain node as in production. */
  entry: string;
  env: Record<string, string>;
  cwd: string;
  logDir: string;
}

export function startProcess(options: StartOptions): ManagedProcess {
  const logFile = path.join(options.logDir, `${options.name}.log`);
  const fd = openSync(logFile, 'w');
  // BENCH_NODE_ARGS: node's own flags for every process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a
  // side's time goes (node refuses --cpu-prof in NODE_OPTIONS).
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, options.entry], {
    cwd: options.cwd,
    // A clean environment: only what the bench passes, plus PGOPTIONS and BENCH_NODE_OPTIONS (added to the
    // process's own NODE_OPTIONS) when the operator set them for the whole run.
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      ...(process.env.PGOPTIONS ? { PGOPTIONS: process.env.PGOPTIONS } : {}),
      // Metrics on, as in production, on any free port: the bench's processes never collide with each other or with
      // a running `npm start`. A section switches them off with METRICS_ENABLED=false.
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
      ...options.env,
      NODE_OPTIONS: [options.env.NODE_OPTIONS, process.env.BENCH_NODE_OPTIONS].filter(Boolean).join(' '),
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${options.name} could not be started (${options.entry})`);
  const pid = child.pid;
  running.add(child);
  let exitedFlag = false;
  let exitReason = '';
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exitedFlag = true;
      exitReason = signal ? `killed by ${signal}` : `exit code ${code}`;
      running.delete(child);
      resolve();
    }),
  );

  let peakKiB = 0;
  const sample = () => {
    const rss = Math.max(readStatusKiB(pid, 'VmRSS'), readStatusKiB(pid, 'VmHWM'));
    if (rss > peakKiB) peakKiB = rss;
    const mib = peakKiB / 1024;
    if (mib > (peaks.get(options.name) ?? 0)) peaks.set(options.name, mib);
  };
  const sampler = setInterval(sample, 200);
  sampler.unref();

  return {
    name: options.name,
    pid,
    logFile,
    peakRssMiB: () => {
      sample();
      return peakKiB / 1024;
    },
    exited: () => exitedFlag,
    exitReason: () => exitReason,
    async stop() {
      if (!exitedFlag) sample();
      clearInterval(sampler);
      if (exitedFlag) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exitedPromise;
      clearTimeout(killer);
    },
  };
}

/** Waits until `url` answers 200, failing early with the log's tail when the process dies first. */
export async function waitForHttp(proc: ManagedProcess, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exited()) throw new Error(`${proc.name} exited during start-up. Last log lines:\n${tail(proc.logFile)}`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${proc.name} did not answer ${url} within ${timeoutMs / 1000}s. Last log lines:\n${tail(proc.logFile)}`);
}

export function tail(file: string, lines = 25): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Kills every child still running; safe to call from 'exit' handlers (synchronous). */
export function killAll(signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const child of running) child.kill(signal);
}

let handlersInstalled = false;
/** On Ctrl+C, SIGTERM or a crash, take the children down with the driver. */
export function installExitHandlers(onSignal: () => Promise<void>): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => killAll('SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\n[bench] ${signal}: stopping the processes under test`);
      const hard = setTimeout(() => {
        killAll('SIGKILL');
        process.exit(130);
      }, 5_000);
      hard.unref();
      void onSignal().finally(() => {
        killAll('SIGTERM');
        setTimeout(() => process.exit(130), 500).unref();
      });
    });
  }
}
