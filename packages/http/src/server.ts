// The APIs' HTTP server (bounded timeouts; problems for what never reaches Express, CONNECT included), listening, and graceful shutdown:
// on SIGTERM/SIGINT stop accepting, let in-flight requests finish (up to a grace period), then close the resources.
import http from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { answerClientErrors, answerConnectRequests } from './client-errors.js';

export interface RunningServer {
  server: http.Server;
  url: string;
  close(): Promise<void>;
}

/**
 * How long a slow client may hold a connection. Node's defaults (60 s for the headers, 5 min for a request, checked
 * every 30 s) let a client that sends its headers byte by byte keep a socket for over a minute.
 */
export interface ServerTimeouts {
  /** Time for a request's headers to arrive, counted from its first byte or from the connection's start: 408 after it. */
  headersTimeoutMs: number;
  /** Time for a whole request, body included: 408 after it. */
  requestTimeoutMs: number;
  /** How often Node looks for connections over those times (connectionsCheckingInterval); they may fire this much late. */
  connectionsCheckIntervalMs: number;
}

/**
 * How long an idle keep-alive connection stays open, advertised as `Keep-Alive: timeout=65`: longer than the 60 s idle
 * timeout of common load balancers (AWS's ALB among them) and of nginx's upstream connections, so the side in front
 * always gives up first and never sends a request on a connection being closed. Node keeps the connection open for 1 s
 * more than it advertises, for a client that comes back just before the time it was told.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

const prototypeReadyOptions = new WeakMap<Express, http.ServerOptions>();

/**
 * An HTTP server for `app` whose requests and responses are born with the prototypes Express would give them.
 * Express 5 calls Object.setPrototypeOf on every req and res (app.handle). When that really changes the objects'
 * prototypes, V8 promotes much of each request to the old generation: measured at a steady 930 req/s, about 10 KB
 * per request (against under 1 KB for node:http alone), a full mark-compact every 0.8 s, and the slow requests of
 * the p99 arriving in bursts at that period. With the prototypes already in place the call changes nothing
 * (V8 returns early when the prototype is the same) and almost nothing is promoted. Plain `class ... extends` matters:
 * a constructor function with an assigned `prototype` (built by Reflect.construct) still promoted half as much.
 */
export function createHttpServer(app: Express, timeouts?: ServerTimeouts): http.Server {
  let options = prototypeReadyOptions.get(app);
  if (!options) {
    class AppRequest extends http.IncomingMessage {}
    class AppResponse extends http.ServerResponse {}
    // The app's own request and response stay in the chain, with every property set on them (req.log included).
    Object.setPrototypeOf(AppRequest.prototype, app.request);
    Object.setPrototypeOf(AppResponse.prototype, app.response);
    app.request = AppRequest.prototype as unknown as Express['request'];
    app.response = AppResponse.prototype as unknown as Express['response'];
    options = { IncomingMessage: AppRequest, ServerResponse: AppResponse as typeof http.ServerResponse };
    prototypeReadyOptions.set(app, options);
  }
  const server = http.createServer(
    timeouts
      ? {
          ...options,
          headersTimeout: timeouts.headersTimeoutMs,
          requestTimeout: timeouts.requestTimeoutMs,
          connectionsCheckingInterval: timeouts.connectionsCheckIntervalMs,
        }
      : options,
    app,
  );
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const locals = app.locals as { problemBase: string; logger: Logger };
  server.on('clientError', answerClientErrors({ problemBase: locals.problemBase, logger: locals.logger }));
  server.on('connect', answerConnectRequests({ problemBase: locals.problemBase, logger: locals.logger }));
  return server;
}

export async function listen(app: Express, options: { port: number; host: string; timeouts: ServerTimeouts }): Promise<RunningServer> {
  const server = createHttpServer(app, options.timeouts);
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
        // server.close() ends only the connections idle at that moment. A keep-alive connection whose request was still
        // running would stay open after its answer, until keepAliveTimeout (65 s), and hold the shutdown for the whole
        // grace period; a supervisor's kill (docker: 10 s) would then cut the process off. So requests arriving from
        // now on are answered with Connection: close, and connections are closed as soon as they fall idle.
        server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
          res.shouldKeepAlive = false;
        });
        const sweep = setInterval(() => server.closeIdleConnections(), 100);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
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
    // Out now rather than with the next batch: if the process is killed before it stops, this line says why.
    options.logger.flush();
    const timer = setTimeout(() => {
      options.logger.warn('grace period over, closing remaining connections');
      running.server.closeAllConnections();
    }, options.timeoutMs);
    timer.unref();
    await running.close();
    await options.cleanup();
    clearTimeout(timer);
    options.logger.info('stopped');
    // writeLogsBeforeExit (called by the main) writes what is still buffered.
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
