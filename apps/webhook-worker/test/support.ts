// Shared set-up of the webhook worker tests: receivers (real HTTP servers on 127.0.0.1 that verify every signature),
// endpoints and partners in PostgreSQL, booking events put on the queue the way the outbox relay puts them, and the
// worker in-process or as its own process.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll } from 'vitest';
import { QUEUES, WEBHOOK_DELIVERIES_QUEUE, type JobPayloads, type WebhookEventType } from '@backbone/contracts';
import { createPartner, insertWebhookEndpointRow, type Pool } from '@backbone/db';
import { jobOptionsFor } from '@backbone/publisher';
import { useWorkerProcesses, waitFor, type TestDatabase, type TestRedis } from '@backbone/testkit';
import { createWebhookSender, startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from '../src/index.js';

export { waitFor } from '@backbone/testkit';
export const silentLogger = pino({ level: 'silent' });

/** What a receiver does with a request: answer with a status (and headers), or never answer. */
export type Behaviour = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang';

export interface Received {
  path: string;
  webhookId: string;
  /** The body as parsed by the standardwebhooks verifier: reaching here means the signature verified. */
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface Receiver {
  /** Base URL, e.g. http://127.0.0.1:PORT */
  url: string;
  received: Received[];
  /** Requests whose signature did not verify (with the verifier's message). */
  rejected: string[];
  /** Every request that arrived, verified or not, by path. */
  hits(path: string): number;
  /** Requests not answered yet. */
  hanging(): number;
  /** Registers the secret of the endpoint at `path`; `behave` decides the answer (default 200). */
  route(path: string, secret: string, behave?: (received: Received) => Behaviour): void;
  setBehaviour(path: string, behave: (received: Received) => Behaviour): void;
  /** Stops listening (connections refused) and starts again on the same port. */
  down(): Promise<void>;
  up(): Promise<void>;
}

/** A receiver on a free loopback port, closed after the file. */
export async function startReceiver(): Promise<Receiver> {
  const routes = new Map<string, { secret: string; behave: (received: Received) => Behaviour }>();
  const hitCounts = new Map<string, number>();
  const received: Received[] = [];
  const rejected: string[] = [];
  const hangingResponses = new Set<http.ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      hitCounts.set(path, (hitCounts.get(path) ?? 0) + 1);
      const route = routes.get(path);
      if (!route) return void res.writeHead(404).end('no such endpoint');
      let body: Received['body'];
      try {
        body = new Webhook(route.secret).verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as Received['body'];
      } catch (error) {
        rejected.push((error as Error).message);
        return void res.writeHead(400).end('bad signature');
      }
      const message = { path, webhookId: String(req.headers['webhook-id']), body };
      const behaviour = route.behave(message);
      if (behaviour === 'hang') {
        hangingResponses.add(res);
        res.on('close', () => hangingResponses.delete(res));
        return;
      }
      const answer = () => {
        if (behaviour.status >= 200 && behaviour.status < 300) received.push(message);
        res.writeHead(behaviour.status, behaviour.headers).end(`answer ${behaviour.status}`);
      };
      if (behaviour.delayMs) setTimeout(answer, behaviour.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  afterAll(close);

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    rejected,
    hits: (path) => hitCounts.get(path) ?? 0,
    hanging: () => hangingResponses.size,
    route(path, secret, behave = () => ({ status: 200 })) {
      routes.set(path, { secret, behave });
    },
    setBehaviour(path, behave) {
      routes.get(path)!.behave = behave;
    },
    down: close,
    up: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}

export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export async function createTestPartner(pool: Pool, accountId: string): Promise<string> {
  return (await createPartner(pool, accountId, `Partner ${randomUUID().slice(0, 8)}`)).id;
}

export interface TestEndpoint {
  id: string;
  path: string;
  secret: string;
}

/** An endpoint of the partner at a path of the receiver (registered there with its secret). */
export async function createTestEndpoint(
  pool: Pool,
  receiver: Receiver,
  accountId: string,
  partnerId: string,
  eventTypes: readonly WebhookEventType[],
  behave?: (received: Received) => Behaviour,
): Promise<TestEndpoint> {
  const path = `/hooks/${randomUUID()}`;
  const secret = newSecret();
  receiver.route(path, secret, behave);
  const id = await insertWebhookEndpointRow(pool, accountId, { partnerId, url: receiver.url + path, eventTypes, secret });
  return { id, path, secret };
}

/** A booking.confirmed event as the partner API writes it to the outbox. */
export function bookingConfirmed(accountId: string, partnerId: string | undefined): JobPayloads['booking.confirmed'] {
  return {
    EventID: randomUUID(),
    AccountID: accountId,
    OccurredAt: Math.floor(Date.now() / 1000),
    Reference: `BK-${randomUUID().slice(0, 8)}`,
    Status: 'confirmed',
    UpdatedAt: new Date().toISOString(),
    ...(partnerId ? { PartnerID: partnerId } : {}),
  };
}

export interface TestQueues {
  bookingEvents(): Queue;
  deliveries(): Queue;
  /** Puts an event on booking-events as the outbox relay does (job id `<account>.<event>`). */
  publish(name: WebhookEventType, event: JobPayloads[WebhookEventType], jobId?: string): Promise<void>;
}

/** Queues on `prefix`, closed after the file. */
export function useQueues(redis: TestRedis, prefix: () => string = () => redis.prefix): TestQueues {
  const opened = new Map<string, Queue>();
  afterAll(async () => {
    for (const queue of opened.values()) await queue.close();
  });
  const queue = (name: string) => {
    const key = `${prefix()}|${name}`;
    let found = opened.get(key);
    if (!found) {
      found = new Queue(name, { connection: redis.connection(), prefix: prefix() });
      opened.set(key, found);
    }
    return found;
  };
  return {
    bookingEvents: () => queue(QUEUES.bookingEvents),
    deliveries: () => queue(WEBHOOK_DELIVERIES_QUEUE),
    async publish(name, event, jobId) {
      const opts = jobOptionsFor(name, event);
      await queue(QUEUES.bookingEvents).add(name, event, jobId ? { ...opts, jobId } : opts);
    },
  };
}

export type InProcessOptions = Partial<Pick<WebhookWorkerOptions, 'deliveryConcurrency' | 'endpointMaxInFlight' | 'retryDelaysMs' | 'disableAfterMs'>> & {
  allowedHosts?: string[];
  timeoutMs?: number;
};

/** Starts in-process webhook workers on this file's schema; all are closed after the file. */
export function useWebhookWorkers(db: TestDatabase, redis: TestRedis) {
  const running: Array<{ worker: WebhookWorker; close: () => void }> = [];
  afterAll(async () => {
    for (const { worker, close } of running) {
      await worker.close();
      close();
    }
  });
  return {
    start(prefix: string, options: InProcessOptions = {}): WebhookWorker {
      const sender = createWebhookSender({ policy: { allowedHosts: options.allowedHosts ?? ['127.0.0.1'] }, timeoutMs: options.timeoutMs ?? 10_000 });
      const worker = startWebhookWorker({
        connection: redis.connection(),
        producer: redis.connection(),
        prefix,
        pool: db.pool,
        sender,
        logger: silentLogger,
        deliveryConcurrency: options.deliveryConcurrency ?? 50,
        fanOutConcurrency: 10,
        endpointMaxInFlight: options.endpointMaxInFlight ?? 10,
        attemptTimeoutMs: options.timeoutMs ?? 10_000,
        retryDelaysMs: options.retryDelaysMs ?? [100, 200, 300],
        disableAfterMs: options.disableAfterMs ?? 5 * 24 * 3600 * 1000,
      });
      running.push({ worker, close: () => sender.close() });
      return worker;
    },
  };
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  failed_at: Date | null;
  delivered_at: Date | null;
}

export async function deliveriesOf(pool: Pool, endpointId: string): Promise<DeliveryRow[]> {
  const { rows } = await pool.query<DeliveryRow>(
    `SELECT id, endpoint_id, event_id, status, attempt_count, last_status_code, last_error, failed_at, delivered_at
       FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id`,
    [endpointId],
  );
  return rows;
}

export interface AttemptRow {
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
}

export async function attemptsOf(pool: Pool, deliveryId: string): Promise<AttemptRow[]> {
  const { rows } = await pool.query<AttemptRow>(
    `SELECT status_code, error, response_excerpt, duration_ms FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id`,
    [deliveryId],
  );
  return rows;
}

/** Waits until the endpoint has `count` deliveries, all in `status`. */
export async function untilDeliveries(pool: Pool, endpointId: string, count: number, status: string, timeoutMs = 30_000): Promise<DeliveryRow[]> {
  let rows: DeliveryRow[] = [];
  await waitFor(
    () => `${count} ${status} deliveries to ${endpointId}; have ${JSON.stringify(rows.map((r) => [r.status, r.attempt_count, r.last_error]))}`,
    async () => {
      rows = await deliveriesOf(pool, endpointId);
      return rows.length === count && rows.every((row) => row.status === status);
    },
    timeoutMs,
  );
  return rows;
}

/** `tsx apps/webhook-worker/src/main.ts` as its own process, the way it runs in production. */
export const { spawn: spawnWebhookWorker, untilRunning } = useWorkerProcesses('apps/webhook-worker/src/main.ts', 'webhook worker');
