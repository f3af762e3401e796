// The paced load generator itself, in a worker thread of its own (bench/lib/paced.ts starts it). The driver process
// holds the whole bench (fixtures, every earlier run's response times, autocannon), and its scavenges took 3-4 ms
// and up to 13 ms during the latency rounds: a pause of the generator delays every request due in it, which showed
// up in the tail of whichever side was being measured. This thread holds only its own sockets and timings, in a
// small young generation, so its pauses stay well under a millisecond.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

export interface PacedJob {
  host: string;
  port: number;
  connections: number;
  rate: number;
  durationSec: number;
  /**
   * Encoded HTTP/1.1 requests back to back in one buffer (one transferable object rather than thousands, which the
   * thread's young generation would have to copy), request i at bytes offsets[i] to offsets[i + 1]; reused from the
   * first when the list runs out.
   */
  requests: ArrayBuffer;
  offsets: Uint32Array;
}

export interface PacedOutcome {
  /** Latency of every answer, ms, from the moment its request was due. */
  times: Float64Array;
  statusCounts: Record<number, number>;
  errors: number;
  timeouts: number;
  elapsedSec: number;
}

async function run(job: PacedJob): Promise<PacedOutcome> {
  const times = new Float64Array(Math.ceil(job.rate * job.durationSec) + 1);
  let answered = 0;
  const statusCounts: Record<number, number> = {};
  const counts = { errors: 0, timeouts: 0 };
  const intervalNs = BigInt(Math.round(1e9 / job.rate));
  const started = process.hrtime.bigint();
  const endNs = started + BigInt(Math.round(job.durationSec * 1e9));

  let outstanding = 0;
  let drained: (() => void) | null = null;
  const settle = () => {
    outstanding -= 1;
    if (outstanding === 0 && drained) drained();
  };
  const pool = new ConnectionPool(job.host, job.port, job.connections, {
    answered(due, status) {
      times[answered++] = Number(process.hrtime.bigint() - due) / 1e6;
      statusCounts[status] = (statusCounts[status] ?? 0) + 1;
      settle();
    },
    failed(timedOut) {
      if (timedOut) counts.timeouts += 1;
      else counts.errors += 1;
      settle();
    },
  });

  let n = 0;
  let due = started;
  while (due < endNs) {
    const now = process.hrtime.bigint();
    // Send everything that is due (catching up after a late timer), then sleep until the next one.
    while (due <= now && due < endNs) {
      outstanding += 1;
      const i = n % (job.offsets.length - 1);
      pool.send(new Uint8Array(job.requests, job.offsets[i]!, job.offsets[i + 1]! - job.offsets[i]!), due);
      n += 1;
      due += intervalNs;
    }
    const waitMs = Number(due - process.hrtime.bigint()) / 1e6;
    if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.floor(waitMs))));
  }
  if (outstanding > 0) await new Promise<void>((resolve) => (drained = resolve));
  pool.close();
  const elapsedSec = Number(process.hrtime.bigint() - started) / 1e9;
  return { times: times.slice(0, answered), statusCounts, ...counts, elapsedSec };
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
  private readonly queue: Array<{ request: Uint8Array; due: bigint }> = [];
  private readonly all = new Set<Connection>();

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly size: number,
    private readonly outcome: Outcome,
  ) {}

  send(request: Uint8Array, due: bigint): void {
    const connection = this.idle.pop() ?? (this.all.size < this.size ? this.open() : null);
    if (connection) connection.start(request, due);
    else this.queue.push({ request, due });
  }

  close(): void {
    for (const connection of this.all) connection.socket.destroy();
  }

  private open(): Connection {
    const connection = new Connection(net.connect({ host: this.host, port: this.port, noDelay: true }), {
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

  start(request: Uint8Array, due: bigint): void {
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

const job = workerData as PacedJob;
const outcome = await run(job);
parentPort!.postMessage(outcome, [outcome.times.buffer as ArrayBuffer]);
