// The supervisor with tiny real child processes: a process that dies is restarted with a new pid, one that keeps
// dying right after its start is given up on with a message naming it and why, and then everything is stopped. A port
// another program holds stops everything at once, saying which port and which variable moves it.
// Runs are timed by a clock only the test moves: whether a run ended "right after its start" is what the test says,
// not how fast this machine starts a node process (on a loaded one, seconds).
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '@backbone/testkit';
import { commandService, createSupervisor, type Supervisor, type SupervisorOptions } from '../supervisor.js';

const node = (name: string, code: string) => commandService(name, process.execPath, ['-e', code], { cwd: process.cwd(), env: process.env });
const longRunning = (name: string) => node(name, 'setInterval(() => {}, 1000)');

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Polls for what the supervisor does in the background; the ceiling is far above the few hundred ms it takes. */
async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

let supervisor: Supervisor | undefined;
const held: net.Server[] = [];
afterEach(async () => {
  await supervisor?.stop();
  for (const server of held.splice(0)) server.close();
});

/** A plain TCP server on the port, as another program would hold it. */
async function hold(port: number): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  held.push(server);
}

/** A supervisor whose clock stands still unless the test moves it (clock.advance): every run is a quick one unless the test makes it long. */
function supervise(options: Partial<SupervisorOptions> = {}) {
  const logged: string[] = [];
  const gaveUp: string[] = [];
  let now = 0;
  const clock = { advance: (ms: number) => void (now += ms) };
  supervisor = createSupervisor({
    log: (m) => logged.push(m),
    onGiveUp: (reason) => gaveUp.push(reason),
    restartDelayMs: 10,
    quickExitMs: 1000,
    maxQuickExits: 3,
    now: () => now,
    ...options,
  });
  return { supervisor, logged, gaveUp, clock };
}

describe('supervisor', () => {
  it('restarts a process that was killed, logs it, and stops everything in order', async () => {
    const { supervisor, logged, gaveUp } = supervise();
    await supervisor.add(longRunning('database'));
    await supervisor.add(longRunning('api'));
    const first = supervisor.pids();

    process.kill(first.api!, 'SIGKILL');
    const restarted = await waitFor('a new api pid', () => {
      const pid = supervisor.pids().api;
      return pid !== undefined && pid !== first.api ? pid : undefined;
    });
    expect(isAlive(restarted)).toBe(true);
    expect(supervisor.pids().database).toBe(first.database);
    expect(logged).toEqual(['api ended (signal SIGKILL); restarting it in 10 ms']);

    await supervisor.stop();
    expect(isAlive(restarted)).toBe(false);
    expect(isAlive(first.database!)).toBe(false);
    expect(gaveUp).toEqual([]);
  });

  it('gives up on a process that keeps failing right after its start: says which and why, and stops the others', async () => {
    const { supervisor, logged, gaveUp } = supervise();
    await supervisor.add(longRunning('database'));
    const database = supervisor.pids().database!;
    // Its first run did start (add resolves), and ended at once, as every later one does.
    await supervisor.add(node('worker', "console.error('cannot read config: PORT is not a number'); process.exit(3)"));

    const reason = await waitFor('the give-up', () => gaveUp[0]);
    expect(reason).toBe(
      'worker keeps failing right after its start: it ended within 1 s of starting 3 times in a row (last: exit code 3: cannot read config: PORT is not a number); stopping everything',
    );
    expect(gaveUp).toHaveLength(1);
    // Two restarts with a growing delay, then the give-up.
    expect(logged).toEqual([
      'worker ended (exit code 3: cannot read config: PORT is not a number); restarting it in 10 ms',
      'worker ended (exit code 3: cannot read config: PORT is not a number); restarting it in 20 ms',
    ]);
    expect(isAlive(database)).toBe(false);
    expect(supervisor.pids()).toEqual({});
  });

  it('a service whose first run cannot even start is given up on, and add() rejects with the reason', async () => {
    const { supervisor, gaveUp } = supervise();
    await expect(supervisor.add(commandService('ghost', '/nonexistent/ghost', [], { cwd: process.cwd(), env: process.env }))).rejects.toThrow(
      'ghost keeps failing right after its start: it ended within 1 s of starting 3 times in a row (last: did not start: spawn /nonexistent/ghost ENOENT); stopping everything',
    );
    await waitFor('the give-up', () => gaveUp[0]);
  });

  it("says why with a pino log line's message and error, not the whole JSON", async () => {
    const { supervisor, gaveUp } = supervise({ maxQuickExits: 1 });
    const fatal = JSON.stringify({
      level: 60,
      msg: 'partner API failed to start',
      err: { message: 'listen EADDRINUSE: address already in use 127.0.0.1:3001', stack: 'Error: …' },
    });
    await supervisor.add(node('partner-api', `console.log(${JSON.stringify(fatal)}); process.exit(1)`));
    expect(await waitFor('the give-up', () => gaveUp[0])).toContain(
      '(last: exit code 1: partner API failed to start: listen EADDRINUSE: address already in use 127.0.0.1:3001)',
    );
  });

  it('does not start a service whose port another program holds: add() rejects with the port and its variable, at once', async () => {
    const { supervisor, logged, gaveUp } = supervise();
    await supervisor.add(longRunning('database'));
    const database = supervisor.pids().database!;
    const port = await freePort();
    await hold(port);

    const api = { ...longRunning('api'), ports: [{ port, host: '127.0.0.1', variable: 'PORT', derived: "PORT + 1, the API's" }] };
    await expect(supervisor.add(api)).rejects.toThrow(`port ${port} is in use; set PORT to another (this port is PORT + 1, the API's)`);
    expect(await waitFor('the give-up', () => gaveUp[0])).toBe(`port ${port} is in use; set PORT to another (this port is PORT + 1, the API's)`);
    expect(logged).toEqual([]);
    expect(isAlive(database)).toBe(false);
    expect(supervisor.pids()).toEqual({});
  });

  it('gives up at once, without a restart, when the port of a service that died was taken meanwhile', async () => {
    const { supervisor, logged, gaveUp } = supervise();
    const port = await freePort();
    await supervisor.add({ ...longRunning('postgres'), ports: [{ port, host: '127.0.0.1', variable: 'EMBEDDED_PG_PORT' }] });
    await hold(port); // the child does not listen: the port is free for another program
    process.kill(supervisor.pids().postgres!, 'SIGKILL');

    expect(await waitFor('the give-up', () => gaveUp[0])).toBe(`port ${port} is in use; set EMBEDDED_PG_PORT to another`);
    expect(logged).toEqual(['postgres ended (signal SIGKILL); restarting it in 10 ms']);
    expect(supervisor.pids()).toEqual({});
  });

  it('counts only exits in a row: a process that ran longer than the window starts a fresh count', async () => {
    const { supervisor, logged, gaveUp, clock } = supervise({ maxQuickExits: 2 });
    // Exits at once every time, but every second run lasts beyond the window by the supervisor's clock: quick, long,
    // quick, long... Two quick exits in a row would give up; one quick exit between long runs never does.
    const exits = node('flaky', 'process.exit(1)');
    let runs = 0;
    await supervisor.add({
      name: exits.name,
      start() {
        runs += 1;
        if (runs % 2 === 0) clock.advance(60_000);
        return exits.start();
      },
    });
    await waitFor('five restarts or a give-up', () => (logged.length >= 5 || gaveUp.length > 0 ? true : undefined));
    expect(gaveUp).toEqual([]);
    // A fresh count after each long run: the delay never grows.
    expect(logged.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => 'flaky ended (exit code 1); restarting it in 10 ms'));
  });
});
