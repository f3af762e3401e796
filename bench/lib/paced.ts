// Latency at a steady offered rate (open loop): requests are due at fixed intervals whatever the answers do, over
// at most `connections` keep-alive sockets, and each latency counts from the moment the request was due, so time
// spent waiting for a free socket is included (no coordinated omission). autocannon cannot do this: its rate
// limit lets every connection send its whole per-second budget back to back at the start of each second, which
// measures a saturated burst, not a steady load.
import http from 'node:http';
import { loadResult, type LoadResult } from './load.js';

export interface PacedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface PacedOptions {
  url: string;
  connections: number;
  /** Requests per second offered. */
  rate: number;
  durationSec: number;
  /** Seconds at the same rate first, not measured: lets the server settle after a previous full-load run. */
  warmupSec?: number;
  request: (n: number) => PacedRequest;
}

export async function runPaced(options: PacedOptions): Promise<LoadResult> {
  if (options.warmupSec && options.warmupSec > 0) await runPaced({ ...options, durationSec: options.warmupSec, warmupSec: 0 });
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const times: number[] = [];
  const statusCounts: Record<number, number> = {};
  let errors = 0;
  let timeouts = 0;
  const inFlight = new Set<Promise<void>>();
  const intervalNs = BigInt(Math.round(1e9 / options.rate));
  const started = process.hrtime.bigint();
  const endNs = started + BigInt(options.durationSec * 1e9);

  const send = (n: number, due: bigint): Promise<void> =>
    new Promise<void>((resolve) => {
      const spec = options.request(n);
      const request = http.request(
        { agent, host: target.hostname, port: target.port, method: spec.method, path: spec.path, headers: spec.headers, timeout: 30_000 },
        (response) => {
          response.resume();
          response.on('end', () => {
            times.push(Number(process.hrtime.bigint() - due) / 1e6);
            statusCounts[response.statusCode ?? 0] = (statusCounts[response.statusCode ?? 0] ?? 0) + 1;
            resolve();
          });
        },
      );
      request.on('timeout', () => {
        timeouts += 1;
        request.destroy(new Error('timeout'));
      });
      request.on('error', () => {
        errors += 1;
        resolve();
      });
      request.end(spec.body);
    });

  let n = 0;
  let due = started;
  while (due < endNs) {
    const now = process.hrtime.bigint();
    // Send everything that is due (catching up after a late timer), then sleep until the next one.
    while (due <= now && due < endNs) {
      const pending = send(n, due);
      inFlight.add(pending);
      void pending.then(() => inFlight.delete(pending));
      n += 1;
      due += intervalNs;
    }
    const waitMs = Number(due - process.hrtime.bigint()) / 1e6;
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.floor(waitMs))));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return loadResult(times, elapsed, { statusCounts, errors, timeouts });
}

/** The same requests an autocannon load would send, for a paced run. */
export function pacedRequests(load: { method?: string; headers?: Record<string, string>; body?: string; setupRequest?: (r: { method?: string; path?: string; body?: string | Buffer }) => { method?: string; path?: string; body?: string | Buffer } }): (n: number) => PacedRequest {
  return () => {
    const built = load.setupRequest ? load.setupRequest({}) : {};
    const body = built.body ?? load.body;
    const headers = { ...(load.headers ?? {}), ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(String(body))) } : {}) };
    return { method: built.method ?? load.method ?? 'GET', path: built.path ?? '/', headers, ...(body !== undefined ? { body: String(body) } : {}) };
  };
}
