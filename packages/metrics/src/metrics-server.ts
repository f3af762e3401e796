// The metrics server: GET /metrics (Prometheus text exposition) on a port of its own, apart from the API's port, so the
// public gateway never reaches it and Prometheus scrapes every process the same way, workers included.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, type Registry } from 'prom-client';

export interface MetricsServerOptions {
  port: number;
  host: string;
  registry: Registry;
}

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9101 (the port chosen when 0 was asked). */
  url: string;
  close(): Promise<void>;
}

// The process metrics (CPU, memory, event loop lag, GC) once per registry, whichever server starts first.
const withDefaultMetrics = new WeakSet<Registry>();

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const { registry } = options;
  if (!withDefaultMetrics.has(registry)) {
    collectDefaultMetrics({ register: registry, prefix: 'backbone_' });
    withDefaultMetrics.add(registry);
  }
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return answer(res, 404, 'Not found: only GET /metrics is served here.\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return answer(res, 405, 'Only GET /metrics.\n');
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => answer(res, 500, 'The metrics could not be collected.\n'),
    );
  });
  // Scrapes come every few seconds over one kept-alive connection; nothing here needs long timeouts.
  server.headersTimeout = 5000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

function answer(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
