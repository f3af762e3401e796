// Latency at a steady offered rate (open loop): requests are due at fixed intervals whatever the answers do, over
// at most `connections` keep-alive sockets, and each latency counts from the moment the request was due, so time
// spent waiting for a free socket is included (no coordinated omission). autocannon cannot do this: its rate
// limit lets every connection send its whole per-second budget back to back at the start of each second, which
// measures a saturated burst, not a steady load.
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
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
  const times: number[] = [];
  const statusCounts: Record<number, number> = {};
  const counts = { errors: 0, timeouts: 0 };
  const intervalNs = BigInt(Math.round(1e9 / options.rate));
  const started = process.hrtime.bigint();
  const endNs = started + BigInt(options.durationSec * 1e9);

  let outstanding = 0;
  let drained: (() => void) | null = null;
  const settle = () => {
    outstanding -= 1;
    if (outstanding === 0 && drained) drained();
  };
  const pool = new ConnectionPool(target, options.connections, {
    answered(due, status) {
      times.push(Number(process.hrtime.bigint() - due) / 1e6);
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      settle();
    },
    failed(timedOut) {
      if (timedOut) counts.timeouts += 1;
      else counts.errors += 1;
      settle();
    },
  });

  const debug = Boolean(process.env.BENCH_PACED_DEBUG);
  const lag = debug ? monitorEventLoopDelay({ resolution: 5 }) : null;
  lag?.enable();
  let sendLagMax = 0;
  let n = 0;
  let due = started;
  while (due < endNs) {
    const now = process.hrtime.bigint();
    // Send everything that is due (catching up after a late timer), then sleep until the next one.
    while (due <= now && due < endNs) {
      sendLagMax = Math.max(sendLagMax, Number(now - due) / 1e6);
      outstanding += 1;
      pool.send(encodeRequest(target, options.request(n)), due);
      n += 1;
      due += intervalNs;
    }
    const waitMs = Number(due - process.hrtime.bigint()) / 1e6;
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.floor(waitMs))));
  }
  if (outstanding > 0) await new Promise<void>((resolve) => (drained = resolve));
  pool.close();
  lag?.disable();
  if (lag)
    console.error(
      `[paced] loop delay max ${(lag.max / 1e6).toFixed(1)} ms p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms; send lag max ${sendLagMax.toFixed(1)} ms; latencies over 100 ms: ${times.filter((t) => t > 100).length}/${times.length}`,
    );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  return loadResult(times, elapsed, { statusCounts, ...counts });
}

function encodeRequest(target: URL, spec: PacedRequest): Buffer {
  let head = `${spec.method} ${spec.path} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(spec.headers)) if (name.toLowerCase() !== 'content-length') head += `${name}: ${value}\r\n`;
  const body = spec.body === undefined ? null : Buffer.from(spec.body);
  if (body) head += `Content-Length: ${body.length}\r\n`;
  head += '\r\n';
  return body ? Buffer.concat([Buffer.from(head, 'latin1'), body]) : Buffer.from(head, 'latin1');
}

interface Outcome {
  answered(due: bigint, status: number): void;
  failed(timedOut: boolean): void;
}

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;
const TIMEOUT_MS = 30_000;

/**
 * At most `size` keep-alive HTTP/1.1 connections, one request in flight on each, requests queued in order when all are
 * busy. A raw socket client rather than node:http: the load generator shares the CPUs with the servers it measures,
 * and node:http's client costs about as much per request as a small server handler, which showed as extra noise in
 * the tail of both ours and the ceiling. It reads answers by Content-Length, which every answer here carries.
 */
class ConnectionPool {
  private readonly idle: Connection[] = [];
  private readonly queue: Array<{ request: Buffer; due: bigint }> = [];
  private readonly all = new Set<Connection>();

  constructor(
    private readonly target: URL,
    private readonly size: number,
    private readonly outcome: Outcome,
  ) {}

  send(request: Buffer, due: bigint): void {
    const connection = this.idle.pop() ?? (this.all.size < this.size ? this.open() : null);
    if (connection) connection.start(request, due);
    else this.queue.push({ request, due });
  }

  close(): void {
    for (const connection of this.all) connection.socket.destroy();
  }

  private open(): Connection {
    const connection = new Connection(net.connect({ host: this.target.hostname, port: Number(this.target.port), noDelay: true }), {
      answered: (due, status) => {
        this.outcome.answered(due, status);
        this.next(connection);
      },
      failed: (timedOut) => this.outcome.failed(timedOut),
      closed: () => {
        this.all.delete(connection);
        const idleAt = this.idle.indexOf(connection);
        if (idleAt >= 0) this.idle.splice(idleAt, 1);
        const waiting = this.queue.shift();
        if (waiting) this.send(waiting.request, waiting.due);
      },
    });
    this.all.add(connection);
    return connection;
  }

  private next(connection: Connection): void {
    const waiting = this.queue.shift();
    if (waiting) connection.start(waiting.request, waiting.due);
    else this.idle.push(connection);
  }
}

class Connection {
  private buffer: Buffer = Buffer.alloc(0);
  private due: bigint | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    readonly socket: net.Socket,
    private readonly outcome: Outcome & { closed(): void },
  ) {
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', () => this.fail(false));
    socket.on('close', () => this.fail(false));
  }

  start(request: Buffer, due: bigint): void {
    this.due = due;
    this.timer = setTimeout(() => this.fail(true), TIMEOUT_MS);
    this.socket.write(request);
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const headerEnd = this.buffer.indexOf(HEADER_END);
    if (headerEnd < 0 || this.due === null) return;
    const head = this.buffer.toString('latin1', 0, headerEnd);
    const length = CONTENT_LENGTH.exec(head);
    if (!length) return this.fail(false);
    const total = headerEnd + HEADER_END.length + Number(length[1]);
    if (this.buffer.length < total) return;
    this.buffer = this.buffer.subarray(total);
    const due = this.due;
    this.due = null;
    clearTimeout(this.timer!);
    this.outcome.answered(due, Number(head.slice(9, 12)));
  }

  private fail(timedOut: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.socket.destroy();
    if (this.due !== null) {
      this.due = null;
      this.outcome.failed(timedOut);
    }
    if (!this.closed) {
      this.closed = true;
      this.outcome.closed();
    }
  }
}

/** The same requests an autocannon load would send, for a paced run. */
export function pacedRequests(load: {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (r: { method?: string; path?: string; body?: string | Buffer }) => { method?: string; path?: string; body?: string | Buffer };
}): (n: number) => PacedRequest {
  return () => {
    const built = load.setupRequest ? load.setupRequest({}) : {};
    const body = built.body ?? load.body;
    const headers = { ...(load.headers ?? {}), ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(String(body))) } : {}) };
    return { method: built.method ?? load.method ?? 'GET', path: built.path ?? '/', headers, ...(body !== undefined ? { body: String(body) } : {}) };
  };
}
