// Polling for what a test cannot await directly: jobs processed by a worker, rows written by another process.

/**
 * Polls `check` until it returns true; fails with `what` when it does not within `timeoutMs`. The default is a ceiling
 * far above what anything here takes on a quiet machine, and still within the test timeout (vitest.config.ts).
 */
export async function waitFor(what: string | (() => string), check: () => Promise<boolean>, timeoutMs = 60_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
