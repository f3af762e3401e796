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

/** Alternating rounds per comparison, the median round reported (see alternatingRounds). */
export const THROUGHPUT_ROUNDS = 3;
export const PACED_ROUNDS = 5;

export interface Rounds {
  ours: LoadResult[];
  ceiling: LoadResult[];
}

/**
 * `rounds` runs of each, alternating ours and the ceiling: a checkpoint, a stray process or a noisy neighbour on this
 * small shared machine can spoil one window of seconds, and alternating spreads such luck over both sides. Which side
 * goes first changes every round (ours, ceiling; ceiling, ours; ...): the machine still warms up over a section's
 * first rounds (caches, JIT, PostgreSQL's buffers), and always going second gave one side that warmth in every pair.
 * `run` gets the round number (0 first) so the first round can warm up longer.
 */
export async function alternatingRounds(
  run: (url: string, round: number) => Promise<LoadResult>,
  urls: { ours: string; ceiling: string },
  rounds: number,
): Promise<Rounds> {
  const result: Rounds = { ours: [], ceiling: [] };
  for (let i = 0; i < rounds; i++) for (const side of sidesInRound(i)) result[side].push(await run(urls[side], i));
  return result;
}

/** The order of the two sides in round `round` (see alternatingRounds). */
export function sidesInRound(round: number): readonly ['ours', 'ceiling'] | readonly ['ceiling', 'ours'] {
  return round % 2 === 0 ? (['ours', 'ceiling'] as const) : (['ceiling', 'ours'] as const);
}

/**
 * Closed-loop throughput of ours and the ceiling in THROUGHPUT_ROUNDS alternating rounds of `roundSec` each, with the
 * full warm-up before the first round and 1 s before the others; every run is logged.
 */
export function throughputRounds(options: {
  urls: { ours: string; ceiling: string };
  connections: number;
  roundSec: number;
  warmupSec: number;
  load: (url: string) => Omit<LoadOptions, 'connections' | 'durationSec'>;
  log: (message: string) => void;
}): Promise<Rounds> {
  return alternatingRounds(
    async (url, round) => {
      const result = await runLoad({
        ...options.load(url),
        connections: options.connections,
        durationSec: options.roundSec,
        warmupSec: round === 0 ? options.warmupSec : 1,
      });
      options.log(`  ${url === options.urls.ours ? 'ours:   ' : 'ceiling:'} ${summarize(result)}`);
      return result;
    },
    options.urls,
    THROUGHPUT_ROUNDS,
  );
}

/** The item whose `key` is the median (the lower middle one of an even count). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** The round with the median p99 (for latency figures). */
export function medianByP99(results: readonly LoadResult[]): LoadResult {
  return medianBy(results, (r) => r.p99);
}

/** The round whose ours/ceiling ratio of `value` is the median (for throughput figures): both results of that round. */
export function medianRound(rounds: Rounds, value: (r: LoadResult) => number): { ours: LoadResult; ceiling: LoadResult; ratio: number; ratios: number[] } {
  const ratios = rounds.ours.map((r, i) => value(r) / value(rounds.ceiling[i]!));
  const { ratio, i } = medianBy(
    ratios.map((ratio, i) => ({ ratio, i })),
    (r) => r.ratio,
  );
  return { ours: rounds.ours[i]!, ceiling: rounds.ceiling[i]!, ratio, ratios };
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
