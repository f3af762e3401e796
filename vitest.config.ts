import { defineConfig } from 'vitest/config';

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
    pool: 'forks',
    maxWorkers: 2,
  },
});
