// The workers' orderly stop. On SIGTERM or SIGINT a worker process says so, stops taking work, lets what is in flight
// finish and closes its connections (`stop`), then exits 0; when that outlasts the grace period it exits 1 at once,
// and what was left in flight is taken again by another process (a job is redelivered, an outbox row sent again).
import type { Logger } from '@backbone/logging';

export interface StopOnSignalsOptions {
  logger: Logger;
  /** The grace period (SHUTDOWN_TIMEOUT_MS): longest wait for `stop` before the process exits 1. */
  timeoutMs: number;
  /** The first line: what the process no longer takes and what it lets finish. */
  stopping: string;
  /** The line when the grace period ends first: what is left behind, and what becomes of it. */
  graceOver: string;
  /** Stops taking work, waits for what is in flight, then closes the connections. */
  stop(): Promise<void>;
}

/** Wires SIGTERM and SIGINT to one stop; call it once the process runs. A second signal of the same kind kills at once. */
export function stopOnSignals(options: StopOnSignalsOptions): void {
  const { logger } = options;
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, options.stopping);
    // Out now rather than with the next batch: if the process is killed before it stops, this line says why.
    logger.flush();
    const timer = setTimeout(() => {
      logger.warn(options.graceOver);
      process.exit(1);
    }, options.timeoutMs);
    timer.unref();
    try {
      await options.stop();
    } catch (err) {
      logger.fatal({ err }, 'stopping failed');
      process.exit(1);
    }
    clearTimeout(timer);
    logger.info('stopped');
    // writeLogsBeforeExit (called by the main) writes what is still buffered.
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
