// The local stand-in for the production gateway (nginx in docker-compose.yml): one base URL in front of both APIs.
// /api/v2/usage/* and /api/v2/platform/* go to the usage API, /api/v2/operator/* and /console to the operator API,
// everything else to the partner API.
import http from 'node:http';

export interface GatewayTargets {
  partnerApi: string;
  usageApi: string;
  operatorApi: string;
}

export function routeFor(path: string, targets: GatewayTargets): string {
  if (path.startsWith('/api/v2/operator') || path === '/console' || path.startsWith('/console/') || path.startsWith('/console?')) return targets.operatorApi;
  return path.startsWith('/api/v2/usage') || path.startsWith('/api/v2/platform') ? targets.usageApi : targets.partnerApi;
}

export function createGateway(targets: GatewayTargets): http.Server {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  return http.createServer((req, res) => {
    const target = new URL(routeFor(req.url ?? '/', targets));
    const upstream = http.request(
      // X-Forwarded-For is set, not passed on: the operator API's sign-in throttle counts per caller address.
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': req.socket.remoteAddress ?? '' }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { 'content-type': 'application/problem+json' });
      res.end(JSON.stringify({ type: 'about:blank', title: 'Bad Gateway', status: 502, detail: 'The upstream service is not answering.', instance: req.url }));
    });
    req.pipe(upstream);
  });
}
