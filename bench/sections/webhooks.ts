// Webhooks: time from a booking event committed to the outbox to its delivery at the partner's endpoint, at a steady
// 200 events/s spread over 10 endpoints of which one never answers. The whole path runs as in production: the outbox
// relay (in the booking worker process), the booking-events queue, the webhook worker's fan-out and delivery, a
// signed POST to a receiver in the driver process.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUES, WEBHOOK_DELIVERIES_QUEUE } from '@backbone/contracts';
import { createPartner, insertOutboxEvent, insertWebhookEndpointRow } from '@backbone/db';
import { createBenchAccount } from '../lib/fixtures.js';
import { percentile } from '../lib/load.js';
import { ensureRunning, tail, type ManagedProcess } from '../lib/processes.js';
import { fmt, type Row, type Section } from '../lib/report.js';
import { startWorker, type BenchContext } from '../lib/context.js';
import { clearPrefix } from '../lib/infra.js';

const PREFIX = 'bench-webhooks';
const ENDPOINTS = 10;
const RATE = 200;
const DELIVERY_DEADLINE_MS = 60_000;

/** A receiver: the healthy endpoints answer 200 at once and note when each webhook-id arrived; the dead one never answers. */
async function startReceiver(deadPath: string): Promise<{ url: string; arrivals: Map<string, number>; hanging: () => number; close: () => Promise<void> }> {
  const arrivals = new Map<string, number>();
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url === deadPath) {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      const id = String(req.headers['webhook-id']);
      if (!arrivals.has(id)) arrivals.set(id, performance.now());
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    hanging: () => hanging.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function waitUntil(what: string, procs: ManagedProcess[], check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    ensureRunning(...procs);
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(
    `timed out after ${timeoutMs / 1000}s waiting for ${what}. Last log lines:\n${procs.map((p) => `${p.name}:\n${tail(p.logFile)}`).join('\n')}`,
  );
}

export async function webhooksSection(ctx: BenchContext): Promise<Section> {
  const redis = new Redis(ctx.redisUrl, { maxRetriesPerRequest: null });
  await clearPrefix(redis, PREFIX);
  // Booking events from the partner section would be relayed too; only this section's events are measured.
  await ctx.pool.query('UPDATE outbox_events SET sent_at = now() WHERE sent_at IS NULL');
  // That UPDATE leaves the old version of every row it marked in the index of unsent rows, which the relay reads at every
  // pass (tens of thousands after the partner section); autovacuum, off on the test machines, would clear them in
  // production.
  await ctx.pool.query('VACUUM (ANALYZE) outbox_events');

  const accountId = await createBenchAccount(ctx.pool, 'bench webhooks', 'UTC');
  const deadPath = '/hooks/dead';
  const receiver = await startReceiver(deadPath);
  const partners: string[] = [];
  for (let i = 0; i < ENDPOINTS; i++) {
    const partnerId = (await createPartner(ctx.pool, accountId, `bench webhook partner ${i}`)).id;
    const path = i === ENDPOINTS - 1 ? deadPath : `/hooks/${i}`;
    const secret = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
    await insertWebhookEndpointRow(ctx.pool, accountId, { partnerId, url: receiver.url + path, eventTypes: ['booking.confirmed'], secret });
    partners.push(partnerId);
  }

  const relay = startWorker(ctx, 'booking-worker-relay', 'booking-worker', { QUEUE_PREFIX: PREFIX, HOLD_SWEEPER_ENABLED: 'false' });
  const worker = startWorker(ctx, 'webhook-worker', 'webhook-worker', { QUEUE_PREFIX: PREFIX, WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  const procs = [relay, worker];
  const committed = new Map<string, { at: number; dead: boolean; measured: boolean }>();
  // The webhook worker consumes both queues. The booking worker consumes none: it is up once its pool holds a
  // connection, which it opens just before its relay starts (whatever the log level, unlike its 'running' line).
  const queues = [QUEUES.bookingEvents, WEBHOOK_DELIVERIES_QUEUE].map((name) => new Queue(name, { connection: redis, prefix: PREFIX }));
  const relayConnected = async () =>
    (
      await ctx.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'booking-worker' AND datname = current_database()`,
      )
    ).rows[0]!.n > 0;
  try {
    await waitUntil(
      'both workers to connect',
      procs,
      async () => (await relayConnected()) && (await Promise.all(queues.map((queue) => queue.getWorkersCount()))).every((n) => n > 0),
      60_000,
    );

    // The first seconds are sent alike but not measured, as every other section warms up: a cold worker (code not yet
    // compiled, no pooled connections, no kept-alive sockets) is not what a partner meets.
    const warmup = RATE * ctx.warmupSec;
    const total = warmup + RATE * ctx.durationSec;
    ctx.log(
      `webhooks: ${fmt.int(total)} booking events at ${RATE}/s over ${ENDPOINTS} endpoints (one never answers), the first ${fmt.int(warmup)} not measured`,
    );
    const started = performance.now();
    const inserts: Promise<void>[] = [];
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const partner = n % ENDPOINTS;
      const eventId = randomUUID();
      const payload = {
        OccurredAt: Math.floor(Date.now() / 1000),
        Reference: `WH-${n}`,
        Status: 'confirmed',
        PartnerID: partners[partner]!,
        UpdatedAt: new Date().toISOString(),
      };
      inserts.push(
        insertOutboxEvent(ctx.pool, { accountId, eventId, type: 'booking.confirmed', payload }).then(() => {
          committed.set(eventId, { at: performance.now(), dead: partner === ENDPOINTS - 1, measured: n >= warmup });
        }),
      );
    }
    await Promise.all(inserts);
    const healthy = [...committed].filter(([, event]) => !event.dead && event.measured);
    await waitUntil('every event at the healthy endpoints', procs, () => healthy.every(([id]) => receiver.arrivals.has(id)), DELIVERY_DEADLINE_MS);
    const hangingAtEnd = receiver.hanging();

    const latencies = healthy.map(([id, event]) => receiver.arrivals.get(id)! - event.at).sort((a, b) => a - b);
    const p95 = percentile(latencies, 95);
    const rows: Row[] = [
      {
        metric: `Event committed to delivered, ${RATE} events/s over ${ENDPOINTS} endpoints (one dead): p95, ms`,
        ours: fmt.ms(p95),
        target: '< 500 ms',
        pass: p95 < 500,
      },
      { metric: 'p50 / p99 / max, ms', ours: `${fmt.ms(percentile(latencies, 50))} / ${fmt.ms(percentile(latencies, 99))} / ${fmt.ms(latencies.at(-1)!)}` },
      {
        metric: 'Delivered to the healthy endpoints; attempts hanging at the dead one at the end',
        ours: `${fmt.int(latencies.length)} of ${fmt.int(healthy.length)}; ${hangingAtEnd} hanging`,
        target: 'all',
        pass: latencies.length === healthy.length,
      },
    ];
    return {
      title: 'Webhooks (issue 12)',
      rows,
      method: [
        `${fmt.int(total)} booking.confirmed events written to the outbox (one INSERT each, as a booking's transaction writes it) at a steady ${RATE}/s for ${ctx.warmupSec + ctx.durationSec} s, round-robin over ${ENDPOINTS} partners with one endpoint each; the tenth endpoint never answers (its attempts hang until the 10 s timeout). The first ${ctx.warmupSec} s warm the workers up and are not measured.`,
        'Path: apps/booking-worker (its outbox relay, default OUTBOX_RELAY_INTERVAL_MS, hold sweeper off) -> booking-events -> apps/webhook-worker (defaults: 200 attempts in flight, 10 per endpoint) -> a signed POST to a receiver in the driver process on 127.0.0.1.',
        "Latency: from the INSERT's commit returning in the driver to the first arrival of the event's webhook-id at its endpoint, over every measured event of the nine healthy endpoints.",
      ],
    };
  } finally {
    await receiver.close();
    await Promise.all(procs.map((proc) => proc.stop()));
    await Promise.all(queues.map((queue) => queue.close()));
    await clearPrefix(redis, PREFIX);
    redis.disconnect();
  }
}
