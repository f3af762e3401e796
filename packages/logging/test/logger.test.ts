// The services' logger in a real process: a line logged while the process idles is on stdout within a second, and
// whatever ends the process, every line logged before is written; an uncaught error is a fatal line and exit 1.
import { describe, expect, it } from 'vitest';
import { useServiceProcesses } from '@backbone/testkit';

const services = useServiceProcesses();
const run = (end: string) => services.spawn('packages/logging/test/fixtures/logging-process.ts', { LOGGING_PROCESS_END: end });

describe('process logger', () => {
  it('writes a line within a second while the process idles: before a timer the process set 1.5 s after it', async () => {
    // Ordered by the process's own timers rather than timed from here, where a busy machine adds seconds.
    const service = run('stays-up');
    await service.waitForLine('from the timer', (l) => l.msg === 'a timer 1.5 s after the lines');
    expect(service.lines().map((l) => l.line.msg)).toEqual(['before the end', 'before the end', 'before the end', 'a timer 1.5 s after the lines']);
    service.child.kill('SIGKILL');
  });

  it('writes every line when the event loop empties', async () => {
    const service = run('event-loop-empties');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(service.lines().map((l) => l.line.n)).toEqual([0, 1, 2]);
  });

  it.each([
    ['uncaught-exception', 'uncaught exception', 'thrown where nothing catches it'],
    ['unhandled-rejection', 'unhandled promise rejection', 'rejected where nothing awaits it'],
  ])('logs an %s as fatal after every earlier line, and exits 1', async (end, msg, message) => {
    const service = run(end);
    expect(await service.exited).toEqual({ code: 1, signal: null });
    const lines = service.lines().map((l) => l.line);
    expect(lines.map((line) => line.msg)).toEqual(['before the end', 'before the end', 'before the end', msg]);
    expect(lines[3]).toMatchObject({ level: 60, err: { message } });
    expect(String((lines[3]!.err as { stack: string }).stack)).toMatch(/\n\s+at /);
  });
});
