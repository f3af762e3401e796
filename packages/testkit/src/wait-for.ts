// Polling for what a test cannot await directly: jobs processed by a worker, rows written by another process.

/** Polls `check` until it returns true; fails with `what` when it does not within `timeoutMs`. */
export async function waitFor(what: string | (() => string), check: () => Promise<boolean>, timeoutMs = 30_000, intervalMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
