// Every process that produces or consumes jobs, run as production runs it: on a queue prefix another database holds
// in this Redis, it refuses to start (exit 1, before an API listens or a worker takes a job), naming both databases.
import { describe, expect, it } from 'vitest';
import { readDatabaseIdentity } from '@backbone/db';
import { claimQueuePrefix, createRedisConnection } from '@backbone/publisher';
import { useServiceProcesses, useTestDatabase, useTestRedis } from '@backbone/testkit';

const ours = useTestDatabase({ poolSize: 2 });
const theirs = useTestDatabase({ poolSize: 2 });
const redis = useTestRedis();
const services = useServiceProcesses();

const PROCESSES = [
  { entry: 'apps/partner-api/src/server.ts', started: 'partner API listening' },
  { entry: 'apps/usage-api/src/server.ts', started: 'usage API listening' },
  { entry: 'apps/operator-api/src/server.ts', started: 'operator API listening' },
  { entry: 'apps/metering-worker/src/main.ts', started: 'metering worker running' },
  { entry: 'apps/webhook-worker/src/main.ts', started: 'webhook worker running' },
  { entry: 'apps/booking-worker/src/main.ts', started: 'booking worker running' },
] as const;

describe("a process on another database's queue prefix", () => {
  // Six processes compiled by tsx at once: about 10 s on a quiet machine, minutes on a loaded one.
  it('each API and worker refuses to start, naming both databases', { timeout: 300_000 }, async () => {
    const [holder, claimant] = [await readDatabaseIdentity(theirs.pool), await readDatabaseIdentity(ours.pool)];
    const connection = createRedisConnection(redis.redisUrl, 'producer');
    await claimQueuePrefix(connection, redis.prefix, holder);
    connection.disconnect();

    const spawned = PROCESSES.map(({ entry, started }) => ({
      entry,
      started,
      process: services.spawn(entry, {
        DATABASE_URL: ours.databaseUrl,
        DATABASE_SCHEMA: ours.schema,
        DATABASE_POOL_SIZE: '2',
        REDIS_URL: redis.redisUrl,
        QUEUE_PREFIX: redis.prefix,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
      }),
    }));
    for (const { entry, started, process } of spawned) {
      expect(await process.exited, `${entry}:\n${process.output()}`).toEqual({ code: 1, signal: null });
      const lines = process.lines().map(({ line }) => line);
      expect(
        lines.map((line) => line.msg),
        entry,
      ).not.toContain(started);
      const fatal = lines.find((line) => line.level === 60) as { err?: { type?: string; message?: string } } | undefined;
      expect(fatal?.err?.type, entry).toBe('QueuePrefixTakenError');
      expect(fatal?.err?.message, entry).toContain(`belong to another database (${holder.description}). This process serves ${claimant.description}.`);
    }
  });
});
