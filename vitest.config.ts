import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that start whole stacks (`npm start`, its gateway, its ports: a minute or more each) first, then the browser
 * tests (20-50 s each), then the rest in vitest's own order. Without a cache of earlier runs (CI's clean clone) vitest
 * runs the larger files first, and the slowest file, a small one, started last and ran on alone for a minute and a half.
 */
class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (file: TestSpecification) =>
      /scripts\/test\/(stacks?-|dev-stack|gateway)/.test(file.moduleId) ? 0 : file.moduleId.endsWith('.e2e.test.ts') ? 1 : 2;
    return (await super.sort(files))
      .map((file, order) => ({ file, order }))
      .sort((a, b) => weight(a.file) - weight(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    include: ['apps/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    setupFiles: ['packages/testkit/src/answer-check-setup.ts'],
    // Ceilings for a test that hangs, not budgets: on a machine busy with other work (load 15-25 on 2 cores) a process
    // started under tsx takes 30 s instead of 3, and a test that took 10 s took over a minute (issue 35).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // expect.poll waits 1 s by default: a budget, not a ceiling, on such a machine.
    expect: { poll: { timeout: 60_000 } },
    sequence: { sequencer: SlowFirstSequencer },
    pool: 'forks',
    maxWorkers: 2,
  },
});
