// Listening and graceful shutdown: on SIGTERM/SIGINT stop accepting, let in-flight requests finish
// (up to a grace period), then close the app's resources.
import http from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';

export interface RunningServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

export async function listen(app: Express, options: { port: number; host: string }): Promise<RunningServer> {
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    server,
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

/** Wires SIGTERM/SIGINT to an orderly stop; `cleanup` closes pools and queues after the last request. */
export function shutdownOnSignals(running: RunningServer, options: { logger: Logger; timeoutMs: number; cleanup: () => Promise<void> }): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    options.logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const timer = setTimeout(() => {
      options.logger.warn('grace period over, closing remaining connections');
      running.server.closeAllConnections();
    }, options.timeoutMs);
    timer.unref();
    await running.close();
    await options.cleanup();
    clearTimeout(timer);
    options.logger.info('stopped');
    options.logger.flush(() => process.exit(0));
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
