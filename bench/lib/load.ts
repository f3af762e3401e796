// Drives HTTP load with autocannon and measures it from the client side: throughput, status codes and latency
// percentiles computed from every single response time (autocannon's own histogram has no p95).
import autocannon, { type AutocannonRequest } from 'autocannon';

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds of measured load. */
  durationSec: number;
  /** Seconds of unmeasured load first, so JIT and pools are warm. */
  warmupSec?: number;
  /** Send exactly this many requests instead of running for durationSec (which then only bounds the run). */
  maxRequests?: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before each request; returns the request to send (path, body, headers may vary). */
  setupRequest?: (request: AutocannonRequest) => AutocannonRequest;
}

export interface LoadResult {
  requests: number;
  durationSec: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  statusCounts: Record<number, number>;
  errors: number;
  timeouts: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** A LoadResult from every response time (ms, any order) seen over `elapsedSec`. */
export function loadResult(times: number[], elapsedSec: number, counts: Pick<LoadResult, 'statusCounts' | 'errors' | 'timeouts'>): LoadResult {
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    durationSec: elapsedSec,
    rps: times.length / elapsedSec,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    max: times.at(-1) ?? Number.NaN,
    ...counts,
  };
}

async function runOnce(options: LoadOptions, durationSec: number, record: boolean): Promise<LoadResult> {
  const times: number[] = [];
  const statusCounts: Record<number, number> = {};
  const started = process.hrtime.bigint();
  const request: AutocannonRequest = {
    method: options.method ?? 'GET',
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body !== undefined ? { body: options.body } : {}),
    ...(options.setupRequest ? { setupRequest: options.setupRequest } : {}),
  };
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: durationSec,
    ...(options.maxRequests ? { amount: options.maxRequests } : {}),
    timeout: 30,
    requests: [request],
  });
  if (record) {
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      times.push(responseTime);
      statusCounts[statusCode] = (statusCounts[statusCode] ?? 0) + 1;
    });
  }
  // With a request count autocannon has no clock of its own: stop it at durationSec whatever happens.
  const guard = options.maxRequests ? setTimeout(() => instance.stop(), durationSec * 1000) : null;
  const result = await instance;
  if (guard) clearTimeout(guard);
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return loadResult(times, elapsed, { statusCounts, errors: result.errors, timeouts: result.timeouts });
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  if (options.warmupSec && options.warmupSec > 0) await runOnce(options, options.warmupSec, false);
  return runOnce(options, options.durationSec, true);
}

/** Responses with this status, as a share of all responses. */
export function shareOf(result: LoadResult, predicate: (status: number) => boolean): number {
  const matching = Object.entries(result.statusCounts)
    .filter(([status]) => predicate(Number(status)))
    .reduce((sum, [, count]) => sum + count, 0);
  return result.requests === 0 ? 0 : matching / result.requests;
}

export function describeStatuses(result: LoadResult): string {
  return Object.entries(result.statusCounts)
    .map(([status, count]) => `${status}x${count}`)
    .join(' ');
}

export function summarize(result: LoadResult): string {
  return `${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, ${describeStatuses(result)}${result.errors ? `, ${result.errors} errors` : ''}`;
}
