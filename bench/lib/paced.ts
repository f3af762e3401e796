// Latency at a steady offered rate (open loop): requests are due at fixed intervals whatever the answers do, over
// at most `connections` keep-alive sockets, and each latency counts from the moment the request was due, so time
// spent waiting for a free socket is included (no coordinated omission). autocannon cannot do this: its rate
// limit lets every connection send its whole per-second budget back to back at the start of each second, which
// measures a saturated burst, not a steady load. The generator runs in a worker thread (paced-worker.ts), away from
// the driver's heap; the requests are encoded here, before the clock starts.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { loadResult, type LoadResult } from './load.js';
import type { PacedJob, PacedOutcome } from './paced-worker.js';

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

// The worker is TypeScript like the rest of the bench, and threads do not inherit tsx's loader: it is compiled once
// per run with esbuild into bench/.tmp/ and started from there.
let workerFile: string | null = null;
function compiledWorker(): string {
  if (!workerFile) {
    const outfile = fileURLToPath(new URL('../.tmp/paced-worker.mjs', import.meta.url));
    buildSync({ entryPoints: [fileURLToPath(new URL('./paced-worker.ts', import.meta.url))], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
    workerFile = outfile;
  }
  return workerFile;
}

// A young generation this small keeps the generator's scavenges short: it holds little but sockets and timings.
const GENERATOR_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 256 };

export async function runPaced(options: PacedOptions): Promise<LoadResult> {
  const warmupSec = options.warmupSec ?? 0;
  const target = new URL(options.url);
  const count = (sec: number) => Math.ceil(options.rate * sec) + 1;
  let n = 0;
  const encode = (sec: number) => Array.from({ length: count(sec) }, () => encodeRequest(target, options.request(n++)));
  if (warmupSec > 0) await generate(target, options, warmupSec, encode(warmupSec));
  const outcome = await generate(target, options, options.durationSec, encode(options.durationSec));
  return loadResult(Array.from(outcome.times), outcome.elapsedSec, { statusCounts: outcome.statusCounts, errors: outcome.errors, timeouts: outcome.timeouts });
}

function generate(target: URL, options: PacedOptions, durationSec: number, requests: Uint8Array[]): Promise<PacedOutcome> {
  const offsets = new Uint32Array(requests.length + 1);
  requests.forEach((request, i) => (offsets[i + 1] = offsets[i]! + request.length));
  const all = new Uint8Array(offsets[requests.length]!);
  requests.forEach((request, i) => all.set(request, offsets[i]));
  const job: PacedJob = { host: target.hostname, port: Number(target.port), connections: options.connections, rate: options.rate, durationSec, requests: all.buffer, offsets };
  const worker = new Worker(compiledWorker(), { workerData: job, transferList: [all.buffer, offsets.buffer], resourceLimits: GENERATOR_LIMITS });
  return new Promise<PacedOutcome>((resolve, reject) => {
    worker.once('message', (outcome: PacedOutcome) => resolve(outcome));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the paced load generator exited (code ${code}) before it answered`)));
  });
}

function encodeRequest(target: URL, spec: PacedRequest): Uint8Array {
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(spec.headers)) if (name.toLowerCase() !== 'content-length') head += `${name}: ${value}\r\n`;
  const body = spec.body === undefined ? null : Buffer.from(spec.body);
  if (body) head += `Content-Length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
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
