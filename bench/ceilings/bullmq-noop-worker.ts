// The worker ceiling: BullMQ's own processing rate on this Redis. A Worker with an empty processor on the catalog's
// platform-events queue, with the concurrency our metering worker is given; it does no validation and no database
// work, so its drain time is the floor any real worker on this queue can reach.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUES } from '@backbone/contracts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = process.env.QUEUE_PREFIX ?? 'bench-noop';
const concurrency = Number(process.env.WORKER_CONCURRENCY ?? 50);

const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
const worker = new Worker(QUEUES.platformEvents, async () => undefined, { connection, prefix, concurrency });
worker.on('error', (error) => console.error(error));
await worker.waitUntilReady();
console.log(JSON.stringify({ msg: 'no-op worker ready', concurrency, prefix }));

const stop = async () => {
  await worker.close();
  connection.disconnect();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
