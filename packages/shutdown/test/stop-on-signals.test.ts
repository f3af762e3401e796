// The workers' orderly stop in a real process: a signal is said, the stop runs once and the process exits 0 after it;
// a stop that outlasts the grace period or fails ends the process with exit code 1; a second SIGTERM kills at once.
import { describe, expect, it } from 'vitest';
import { useServiceProcesses, type ServiceProcess } from '@backbone/testkit';

const services = useServiceProcesses();
const run = (env: { GRACE_MS: number; STOP_MS: number; STOP_FAILS?: boolean }) =>
  services.spawn('packages/shutdown/test/fixtures/stopping-process.ts', {
    GRACE_MS: String(env.GRACE_MS),
    STOP_MS: String(env.STOP_MS),
    ...(env.STOP_FAILS ? { STOP_FAILS: '1' } : {}),
  });
const messages = (service: ServiceProcess) => service.lines().map(({ line }) => line.msg);
const running = (service: ServiceProcess) => service.waitForLine('"running"', (line) => line.msg === 'running');
const finishing = (service: ServiceProcess) => service.waitForLine('"finishing"', (line) => line.msg === 'finishing');

describe('stopOnSignals', () => {
  it('on SIGTERM says so, lets the stop finish, says stopped and exits 0', async () => {
    const service = run({ GRACE_MS: 30_000, STOP_MS: 100 });
    await running(service);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(messages(service)).toEqual(['running', 'shutting down: no new work, finishing the work in flight', 'finishing', 'closed', 'stopped']);
    expect(service.lines()[1]!.line.signal).toBe('SIGTERM');
  });

  it('stops once when SIGTERM follows SIGINT', async () => {
    const service = run({ GRACE_MS: 30_000, STOP_MS: 1500 });
    await running(service);
    service.child.kill('SIGINT');
    await finishing(service);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(messages(service).filter((msg) => msg === 'finishing')).toHaveLength(1);
    expect(service.lines()[1]!.line.signal).toBe('SIGINT');
    expect(messages(service).at(-1)).toBe('stopped');
  });

  it('exits 1 with the grace line when the stop outlasts the grace period', async () => {
    const service = run({ GRACE_MS: 300, STOP_MS: 60_000 });
    await running(service);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 1, signal: null });
    expect(messages(service)).toEqual([
      'running',
      'shutting down: no new work, finishing the work in flight',
      'finishing',
      'grace period over: exiting with work in flight',
    ]);
  });

  it('exits 1 with a fatal line when the stop fails', async () => {
    const service = run({ GRACE_MS: 30_000, STOP_MS: 10, STOP_FAILS: true });
    await running(service);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 1, signal: null });
    const last = service.lines().at(-1)!.line;
    expect(last).toMatchObject({ level: 60, msg: 'stopping failed', err: { message: 'a connection would not close' } });
    expect(messages(service)).not.toContain('stopped');
  });

  it('a second SIGTERM while stopping ends the process at once', async () => {
    const service = run({ GRACE_MS: 60_000, STOP_MS: 60_000 });
    await running(service);
    service.child.kill('SIGTERM');
    await finishing(service);
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });
});
