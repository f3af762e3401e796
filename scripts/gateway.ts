// The local stand-in for the production gateway (nginx in docker-compose.yml): one base URL in front of the three APIs.
// /api/v2/usage/* and /api/v2/platform/* go to the usage API, /api/v2/operator/* and /console to the operator API,
// everything else to the partner API. /metrics is answered 404 here: each process serves its metrics on a port of its
// own, never through the public gateway (a route of that name added to an API later must not leak). Its own answers
// (an upstream that does not answer, a request Node's parser refuses, a slow client) are problems like the APIs'.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { httpEnv } from '@backbone/config';
import { answerClientErrors, problemDocument, type ServerTimeouts } from '@backbone/http';

export interface GatewayTargets {
  partnerApi: string;
  usageApi: string;
  operatorApi: string;
}

export interface GatewayOptions {
  /** Base URI of the problem `type`s of the gateway's own answers: the APIs' PROBLEM_BASE (default: its default). */
  problemBase?: string;
  /** How long a slow client may hold a connection (default: the APIs' defaults). */
  timeouts?: ServerTimeouts;
}

const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: httpEnv.HEADERS_TIMEOUT_MS.default,
  requestTimeoutMs: httpEnv.REQUEST_TIMEOUT_MS.default,
  connectionsCheckIntervalMs: httpEnv.CONNECTIONS_CHECK_INTERVAL_MS.default,
};

export function routeFor(path: string, targets: GatewayTargets): string {
  if (path.startsWith('/api/v2/operator') || path === '/console' || path.startsWith('/console/') || path.startsWith('/console?')) return targets.operatorApi;
  return path.startsWith('/api/v2/usage') || path.startsWith('/api/v2/platform') ? targets.usageApi : targets.partnerApi;
}

export function createGateway(targets: GatewayTargets, options: GatewayOptions = {}): http.Server {
  const problemBase = (options.problemBase ?? httpEnv.PROBLEM_BASE.default).replace(/\/+$/, '');
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer(
    { headersTimeout: timeouts.headersTimeoutMs, requestTimeout: timeouts.requestTimeoutMs, connectionsCheckingInterval: timeouts.connectionsCheckIntervalMs },
    (req, res) => {
      if (isMetricsPath(req.url ?? '/')) return answerProblem(res, problemBase, 404, 'not-found', `No route for ${req.method} /metrics.`, '/metrics');
      const target = new URL(routeFor(req.url ?? '/', targets));
      const upstream = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardedHeaders(req), agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        // Already answered (a client error, or a response cut off midway): nothing more can be sent.
        if (res.headersSent || !res.socket || res.socket.destroyed) return res.destroy();
        answerProblem(res, problemBase, 502, 'bad-gateway', 'The upstream service is not answering.', req.url?.split('?')[0]);
      });
      // A request the client never finished (its connection ended, or it was too slow) must not keep the upstream waiting.
      req.once('close', () => {
        if (!req.complete) upstream.destroy();
      });
      req.pipe(upstream);
    },
  );
  server.on('clientError', answerClientErrors({ problemBase }));
  return server;
}

/**
 * The request's headers with what the gateway saw set, never passed on from the client, as deploy/nginx.conf does: the
 * operator API's sign-in throttle counts per caller address (X-Forwarded-For), and it compares a state-changing
 * request's Origin with the scheme, host and port the caller reached (X-Forwarded-Proto and -Host).
 */
function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '', 'x-forwarded-proto': 'http' };
  if (req.headers.host === undefined) delete headers['x-forwarded-host'];
  else headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

/** /metrics in any spelling the APIs' routing would match: a trailing slash, a query, other letter cases. */
function isMetricsPath(url: string): boolean {
  return /^\/metrics\/?(\?|$)/i.test(url);
}

function answerProblem(
  res: http.ServerResponse,
  problemBase: string,
  status: number,
  code: 'not-found' | 'bad-gateway',
  detail: string,
  instance: string | undefined,
): void {
  const requestId = randomUUID();
  const body = JSON.stringify(problemDocument(problemBase, code, detail, instance, { requestId }));
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId });
  res.end(body);
}
