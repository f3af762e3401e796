// The services' logger: pino JSON lines on stdout, and the process's last lines written whatever ends it. Every
// process (the APIs through @backbone/http, the workers directly) makes its logger here.
import { destination, pino, type Logger } from 'pino';

export type { Logger };

const streams = new WeakMap<Logger, ReturnType<typeof destination>>();

/**
 * JSON lines on stdout, written in batches of about 4 KB and at least once a second (so a quiet process's lines, such
 * as "listening", still show within a second). One write per request line was a tenth of a usage POST's CPU; measured
 * against 200,000 request lines into a pipe, synchronous batched writes cost about 6 us a line, asynchronous batched
 * ones about 9 (a thread-pool round trip per batch) and one write per line about 9. Synchronous writes also leave
 * nothing in flight, so writeLogsBeforeExit can write everything still buffered when the process exits.
 */
export function createLogger(options: { level: string; name: string }): Logger {
  const stream = destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 1000 });
  const logger = pino({ level: options.level, name: options.name, base: { service: options.name } }, stream);
  streams.set(logger, stream);
  return logger;
}

/**
 * For a service's main, once: every buffered line of `logger` is written before the process exits, whatever ends it
 * (process.exit, an empty event loop), and an uncaught exception or unhandled rejection is logged as fatal and ends the
 * process with exit code 1 instead of dying with the lines before it unwritten.
 */
export function writeLogsBeforeExit(logger: Logger): void {
  const stream = streams.get(logger);
  if (!stream) throw new Error('writeLogsBeforeExit takes a logger made by createLogger');
  process.once('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // stdout is gone; there is nowhere left to write to.
    }
  });
  const fatal = (err: unknown, msg: string) => {
    logger.fatal({ err }, msg);
    process.exit(1);
  };
  process.on('uncaughtException', (err) => fatal(err, 'uncaught exception'));
  process.on('unhandledRejection', (reason) => fatal(reason, 'unhandled promise rejection'));
}
