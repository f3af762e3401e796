// The local stand-in for the production gateway (nginx in docker-compose.yml): one base URL in front of the three APIs.
// /api/v2/usage/* and /api/v2/platform/* go to the usage API, /api/v2/operator/* and /console to the operator API,
// everything else to the partner API. /metrics is answered 404 here: each process serves its metrics on a port of its
// own, never through the public gateway (a route of that name added to an API later must not leak). Its own answers
// (an upstream that does not answer, a request Node's parser refuses, a slow client, CONNECT) are problems like the
// APIs'. What a client gets through it is what the API would answer it directly (scripts/test/gateway-uploads.test.ts).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { pipeline } from 'node:stream';
import { httpEnv } from '@backbone/config';
import { answerClientErrors, answerConnectRequests, closeUnreadGently, KEEP_ALIVE_TIMEOUT_MS, problemDocument, type ServerTimeouts } from '@backbone/http';

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
  /** How long an idle client connection stays open, and what Keep-Alive says (default: the APIs' 65 s; tests shorten it). */
  keepAliveTimeoutMs?: number;
}

const DEFAULT_TIMEOUTS: ServerTimeouts = {
  headersTimeoutMs: httpEnv.HEADERS_TIMEOUT_MS.default,
  requestTimeoutMs: httpEnv.REQUEST_TIMEOUT_MS.default,
  connectionsCheckIntervalMs: httpEnv.CONNECTIONS_CHECK_INTERVAL_MS.default,
};

/**
 * Headers that describe one connection, not the message (RFC 9110 7.6.1), as nginx drops them: each hop has its own.
 * Passed on, the APIs' `Keep-Alive: timeout=65` promised the gateway's clients a time the gateway did not keep.
 * Transfer-Encoding is not among them for requests: a chunked body is passed on chunked (Node encodes it again).
 */
const CONNECTION_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];

export function routeFor(path: string, targets: GatewayTargets): string {
  if (path.startsWith('/api/v2/operator') || path === '/console' || path.startsWith('/console/') || path.startsWith('/console?')) return targets.operatorApi;
  return path.startsWith('/api/v2/usage') || path.startsWith('/api/v2/platform') ? targets.usageApi : targets.partnerApi;
}

export function createGateway(targets: GatewayTargets, options: GatewayOptions = {}): http.Server {
  const problemBase = (options.problemBase ?? httpEnv.PROBLEM_BASE.default).replace(/\/+$/, '');
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  // No cap on upstream connections: each request in flight has a connection of its own, as it would going to the API
  // directly. A shared cap (it was 256) let 300 uploads that never finished hold every connection, and every other
  // client's request queued behind them until the uploads timed out. Slow clients are bounded where they are, by the
  // timeouts (the gateway's and the API's, 408 after REQUEST_TIMEOUT_MS); idle connections are kept for reuse.
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer(
    {
      headersTimeout: timeouts.headersTimeoutMs,
      requestTimeout: timeouts.requestTimeoutMs,
      connectionsCheckingInterval: timeouts.connectionsCheckIntervalMs,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? KEEP_ALIVE_TIMEOUT_MS,
    },
    (req, res) => {
      if (isMetricsPath(req.url ?? '/')) return answerProblem(res, problemBase, 404, 'not-found', `No route for ${req.method} /metrics.`, '/metrics');
      forward(req, res, new URL(routeFor(req.url ?? '/', targets)), agent, problemBase);
    },
  );
  server.on('clientError', answerClientErrors({ problemBase }));
  server.on('connect', answerConnectRequests({ problemBase }));
  return server;
}

/**
 * Passes one request on and its answer back, each framed as it came: the request's headers are sent at once (an
 * upload the API refuses from its headers alone is answered before its body comes) and without a Content-Length the
 * client did not send (the API's 411). The upstream request ends with the client's: gone before its answer (a request
 * Node's parser refused midway, a timeout, a client that left), the API sees its connection close and undoes what it
 * began, as it would for a client of its own.
 */
function forward(req: http.IncomingMessage, res: http.ServerResponse, target: URL, agent: http.Agent, problemBase: string): void {
  const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardedHeaders(req), agent });
  // Node adds framing of its own to a request that has none (chunked, or Content-Length: 0 once ended).
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
    upstream.removeHeader('content-length');
    upstream.removeHeader('transfer-encoding');
  }
  upstream.flushHeaders();
  upstream.on('response', (answer) => {
    // The API closes after this answer, perhaps with the body unread (a 413 from the headers alone): so does the
    // gateway, gently, or a client still sending could lose the answer to a reset.
    if (/\bclose\b/i.test(answer.headers.connection ?? '')) stopForwarding(req, res, upstream);
    res.writeHead(answer.statusCode ?? 502, withoutConnectionHeaders(answer.headers, ['transfer-encoding']));
    // An answer cut off upstream is cut off here too (pipe would leave the client waiting for the rest).
    pipeline(answer, res, () => undefined);
  });
  upstream.on('error', () => {
    // The rest of the body has nowhere to go.
    req.unpipe(upstream);
    req.resume();
    // An answer already begun cannot be finished; nor can one to a client already gone.
    if (res.headersSent || !res.socket || res.socket.destroyed) return res.destroy();
    if (!req.complete) closeUnreadGently(req, res);
    answerProblem(res, problemBase, 502, 'bad-gateway', 'The upstream service is not answering.', req.url?.split('?')[0]);
  });
  // A client gone before its answer, or before the end of its body: the API sees its connection close too.
  res.once('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.once('close', () => {
    if (!req.complete) upstream.destroy();
  });
  req.pipe(upstream);
}

/** The rest of the request's body goes nowhere: read and dropped until the client stops or the gentle close ends. */
function stopForwarding(req: http.IncomingMessage, res: http.ServerResponse, upstream: http.ClientRequest): void {
  req.unpipe(upstream);
  req.resume();
  closeUnreadGently(req, res);
}

/**
 * The request's headers with what the gateway saw set, never passed on from the client, as deploy/nginx.conf does: the
 * operator API's sign-in throttle counts per caller address (X-Forwarded-For), and it compares a state-changing
 * request's Origin with the scheme, host and port the caller reached (X-Forwarded-Proto and -Host).
 */
function forwardedHeaders(req: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers = withoutConnectionHeaders(req.headers);
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
  headers['x-forwarded-proto'] = 'http';
  if (req.headers.host === undefined) delete headers['x-forwarded-host'];
  else headers['x-forwarded-host'] = req.headers.host;
  return headers;
}

function withoutConnectionHeaders(headers: http.IncomingHttpHeaders, more: string[] = []): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = { ...headers };
  for (const name of [...CONNECTION_HEADERS, ...more]) delete kept[name];
  return kept;
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
