// Gauges read at scrape time rather than kept up to date: queue depths from Redis, the outbox backlog and disabled
// webhook endpoints from PostgreSQL. A process (the booking worker) registers the sources it can read; a gauge joins
// the registry with its first source, so processes that read nothing do not expose empty gauges. A source that does
// not answer leaves its labelled series out of that scrape, sets its unlabelled gauges to NaN (unknown, where 0 would
// read as "all clear") and counts in backbone_metrics_collector_errors_total, rather than failing the whole scrape
// (the HTTP and process metrics still matter most when Redis is down).
import { Gauge } from 'prom-client';
import { collectorErrorsTotal, registry } from './metrics.js';

/** The job states reported per queue. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** What is read from a BullMQ Queue (structurally, so this package does not depend on BullMQ). */
export interface QueueProbe {
  readonly name: string;
  getJobCounts(...states: (typeof QUEUE_STATES)[number][]): Promise<Record<string, number>>;
  /** BullMQ's getJobs: `asc` true lists the oldest first. */
  getJobs(states: 'wait'[], start: number, end: number, asc: boolean): Promise<readonly ({ timestamp: number } | undefined)[]>;
}

export interface OutboxBacklog {
  /** Unrelayed events per event type (a catalog job name). */
  byType: Readonly<Record<string, number>>;
  /** Age of the oldest unrelayed event; 0 when there is none. */
  oldestAgeSeconds: number;
}

interface QueueReading {
  name: string;
  counts: Record<string, number>;
  oldestAgeSeconds: number;
}

type OnCollectError = (collector: string, error: unknown) => void;

/**
 * One read shared by the gauges it feeds: the registry collects every metric of a scrape at once, so the second
 * gauge of a source joins the read the first one started instead of asking Redis or PostgreSQL again.
 */
function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  return () => {
    inFlight ??= read().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

interface ScrapeGauge {
  name: string;
  gauge: Gauge<string>;
}

function scrapeGauge<L extends string>(
  config: { name: string; help: string; labelNames?: readonly L[] },
  collect: (gauge: Gauge<L>) => Promise<void>,
): ScrapeGauge {
  const gauge = new Gauge<L>({
    ...config,
    registers: [],
    async collect() {
      this.reset();
      await collect(this);
    },
  });
  return { name: config.name, gauge };
}

/** Registers a gauge's sources; returns the function that removes one again. */
function sourceSet<S>(gauges: readonly ScrapeGauge[]) {
  const sources = new Set<S>();
  return {
    sources,
    add(source: S): () => void {
      if (sources.size === 0) for (const { gauge } of gauges) registry.registerMetric(gauge);
      sources.add(source);
      return () => {
        if (!sources.delete(source) || sources.size > 0) return;
        for (const { name } of gauges) registry.removeSingleMetric(name);
      };
    },
  };
}

async function readEach<S, R>(collector: string, sources: Iterable<S>, read: (source: S) => Promise<R>): Promise<R[]> {
  const settled = await Promise.allSettled([...sources].map(read));
  const values: R[] = [];
  for (const result of settled) {
    if (result.status === 'fulfilled') values.push(result.value);
    else collectorErrorsTotal.inc({ collector });
  }
  return values;
}

// Queues ------------------------------------------------------------------------------------------------------------

interface QueueSource {
  queues: readonly QueueProbe[];
  onError: OnCollectError;
}

const readQueues = sharedRead(async (): Promise<QueueReading[]> => {
  const readings = await readEach('queues', queueSources.sources, async (source) => {
    try {
      return await Promise.all(source.queues.map(readQueue));
    } catch (error) {
      source.onError('queues', error);
      throw error;
    }
  });
  return readings.flat();
});

async function readQueue(queue: QueueProbe): Promise<QueueReading> {
  const [counts, oldest] = await Promise.all([queue.getJobCounts(...QUEUE_STATES), queue.getJobs(['wait'], 0, 0, true)]);
  const addedAt = oldest[0]?.timestamp;
  return { name: queue.name, counts, oldestAgeSeconds: addedAt === undefined ? 0 : Math.max(0, (Date.now() - addedAt) / 1000) };
}

const queueJobsGauge = scrapeGauge(
  {
    name: 'backbone_queue_jobs',
    help: 'Jobs in each queue by state (waiting, active, delayed, failed), read from Redis at scrape time.',
    labelNames: ['queue', 'state'] as const,
  },
  async (gauge) => {
    for (const reading of await readQueues()) for (const state of QUEUE_STATES) gauge.set({ queue: reading.name, state }, reading.counts[state] ?? 0);
  },
);

const queueOldestJobAgeGauge = scrapeGauge(
  {
    name: 'backbone_queue_oldest_job_age_seconds',
    help: 'Age of the oldest waiting job of each queue since it was added (0 when none waits), read from Redis at scrape time.',
    labelNames: ['queue'] as const,
  },
  async (gauge) => {
    for (const reading of await readQueues()) gauge.set({ queue: reading.name }, reading.oldestAgeSeconds);
  },
);

const queueSources = sourceSet<QueueSource>([queueJobsGauge, queueOldestJobAgeGauge]);

/** Reports the depth and oldest-job age of `queues` at every scrape (cheap calls: job counts and one job per queue). */
export function collectQueueMetrics(queues: readonly QueueProbe[], onError: OnCollectError = () => undefined): () => void {
  return queueSources.add({ queues, onError });
}

// Outbox ------------------------------------------------------------------------------------------------------------

interface OutboxSource {
  read: () => Promise<OutboxBacklog>;
  onError: OnCollectError;
}

const readOutbox = sharedRead(() =>
  readEach('outbox', outboxSources.sources, async (source) => {
    try {
      return await source.read();
    } catch (error) {
      source.onError('outbox', error);
      throw error;
    }
  }),
);

const outboxBacklogGauge = scrapeGauge(
  {
    name: 'backbone_outbox_backlog',
    help: 'Outbox events not yet relayed to their queue, by event type, read from PostgreSQL at scrape time.',
    labelNames: ['type'] as const,
  },
  async (gauge) => {
    for (const backlog of await readOutbox()) for (const [type, count] of Object.entries(backlog.byType)) gauge.inc({ type }, count);
  },
);

const outboxOldestEventAgeGauge = scrapeGauge(
  {
    name: 'backbone_outbox_oldest_event_age_seconds',
    help: 'Age of the oldest outbox event not yet relayed (0 when none waits), read from PostgreSQL at scrape time.',
  },
  async (gauge) => {
    const backlogs = await readOutbox();
    gauge.set(backlogs.length === 0 ? NaN : Math.max(0, ...backlogs.map((backlog) => backlog.oldestAgeSeconds)));
  },
);

const outboxSources = sourceSet<OutboxSource>([outboxBacklogGauge, outboxOldestEventAgeGauge]);

/** Reports the outbox backlog that `read` finds at every scrape. */
export function collectOutboxMetrics(read: () => Promise<OutboxBacklog>, onError: OnCollectError = () => undefined): () => void {
  return outboxSources.add({ read, onError });
}

// Webhook endpoints -------------------------------------------------------------------------------------------------

interface DisabledEndpointsSource {
  count: () => Promise<number>;
  onError: OnCollectError;
}

const webhookEndpointsDisabledGauge = scrapeGauge(
  {
    name: 'backbone_webhook_endpoints_disabled',
    help: 'Webhook endpoints disabled (every attempt failed for days, or the destination was refused), read from PostgreSQL at scrape time.',
  },
  async (gauge) => {
    const counts = await readEach('webhook_endpoints', disabledEndpointsSources.sources, async (source) => {
      try {
        return await source.count();
      } catch (error) {
        source.onError('webhook_endpoints', error);
        throw error;
      }
    });
    gauge.set(counts.length === 0 ? NaN : Math.max(...counts));
  },
);

const disabledEndpointsSources = sourceSet<DisabledEndpointsSource>([webhookEndpointsDisabledGauge]);

/** Reports the number of disabled webhook endpoints that `count` finds at every scrape. */
export function collectDisabledWebhookEndpoints(count: () => Promise<number>, onError: OnCollectError = () => undefined): () => void {
  return disabledEndpointsSources.add({ count, onError });
}
