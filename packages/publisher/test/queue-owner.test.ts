// A queue prefix bound to its database, on the real Redis with identities the real PostgreSQL gives: the first database
// to claim a prefix holds it, the same one claims it again as often as its processes start, any other is refused with
// both named. A worker's check waits for a Redis that does not answer yet; an API's lets it serve meanwhile and stops
// it once Redis answers with another database's hold.
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { readDatabaseIdentity } from '@backbone/db';
import { useTestDatabase, useTestRedis } from '@backbone/testkit';
import { claimQueuePrefix, createRedisConnection, databaseQueuePrefix, guardQueuePrefix, queueOwnerKey, QueuePrefixTakenError } from '@backbone/publisher';

const first = useTestDatabase({ poolSize: 2 });
const second = useTestDatabase({ poolSize: 2 });
const redis = useTestRedis();
const closers: Array<() => void> = [];
afterAll(() => closers.forEach((close) => close()));

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const value = probe();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A door to the test's Redis: shut, it drops every connection (Redis unreachable); open, it passes them through. */
async function redisDoor(): Promise<{ url: string; open(): void }> {
  const target = new URL(redis.redisUrl);
  let open = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (!open) return socket.destroy();
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    sockets.add(socket).add(upstream);
    socket
      .on('error', () => upstream.destroy())
      .pipe(upstream)
      .on('error', () => socket.destroy())
      .pipe(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { url: `redis://127.0.0.1:${(server.address() as net.AddressInfo).port}`, open: () => (open = true) };
}

function connection(url: string): Redis {
  const opened = createRedisConnection(url, 'producer');
  closers.push(() => opened.disconnect());
  return opened;
}

describe('the database a queue prefix is bound to', () => {
  it('PostgreSQL tells two schemas apart and the same one alike; each has a prefix of its own', async () => {
    const [a, again, b] = [await readDatabaseIdentity(first.pool), await readDatabaseIdentity(first.pool), await readDatabaseIdentity(second.pool)];
    expect(again).toEqual(a);
    expect(b.id).not.toBe(a.id);
    expect(a.description).toMatch(new RegExp(`^database "\\w+", schema "${first.schema}" on 127\\.0\\.0\\.1:\\d+, system \\d+$`));
    expect(databaseQueuePrefix(a)).toMatch(/^bull-[0-9a-f]{12}$/);
    expect(databaseQueuePrefix(again)).toBe(databaseQueuePrefix(a));
    expect(databaseQueuePrefix(b)).not.toBe(databaseQueuePrefix(a));
  });

  it('the first database to claim a prefix holds it; it claims it again, another is refused with both named', async () => {
    const [a, b] = [await readDatabaseIdentity(first.pool), await readDatabaseIdentity(second.pool)];
    const redisA = connection(redis.redisUrl);
    const prefix = `${redis.prefix}:claim`;
    await claimQueuePrefix(redisA, prefix, a);
    await claimQueuePrefix(redisA, prefix, a);
    const refused = await claimQueuePrefix(connection(redis.redisUrl), prefix, b).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(QueuePrefixTakenError);
    expect((refused as Error).message).toBe(
      `The queues under prefix '${prefix}' in this Redis belong to another database (${a.description}). This process serves ${b.description}. ` +
        `Set QUEUE_PREFIX to a prefix of this database's own. Only if this database took that one's place (restored, moved, upgraded) ` +
        `and the jobs queued there are now this one's, delete the Redis key '${prefix}:backbone:database'.`,
    );
    expect(JSON.parse((await redisA.get(queueOwnerKey(prefix)))!)).toEqual(a);
  });

  it("a worker's check waits for a Redis that does not answer, then claims the prefix", async () => {
    const owner = await readDatabaseIdentity(first.pool);
    const door = await redisDoor();
    const prefix = `${redis.prefix}:waits`;
    let unanswered: Error | undefined;
    let settled = false;
    const guard = guardQueuePrefix({
      connection: connection(door.url),
      prefix,
      owner,
      waitForRedis: true,
      retryMs: 50,
      onUnanswered: (error) => (unanswered = error),
    });
    void guard.finally(() => (settled = true));
    await until('Redis to fail to answer', () => unanswered);
    await new Promise((r) => setTimeout(r, 200)); // a few tries more
    expect(settled).toBe(false);

    door.open();
    await guard;
    expect(JSON.parse((await connection(redis.redisUrl).get(queueOwnerKey(prefix)))!)).toEqual(owner);
  });

  it("an API's check lets it serve while Redis does not answer, and tells it once Redis answers with another database's hold", async () => {
    const [ours, theirs] = [await readDatabaseIdentity(first.pool), await readDatabaseIdentity(second.pool)];
    const door = await redisDoor();
    const prefix = `${redis.prefix}:serves`;
    const unanswered: Error[] = [];
    let taken: QueuePrefixTakenError | undefined;
    await guardQueuePrefix({
      connection: connection(door.url),
      prefix,
      owner: ours,
      waitForRedis: false,
      retryMs: 50,
      onUnanswered: (error) => unanswered.push(error),
      onTaken: (error) => (taken = error),
    });
    expect(unanswered).toHaveLength(1);

    await claimQueuePrefix(connection(redis.redisUrl), prefix, theirs);
    door.open();
    const error = await until('the hold found', () => taken);
    expect(error.message).toContain(`belong to another database (${theirs.description}). This process serves ${ours.description}.`);
    expect(unanswered).toHaveLength(1);
  });
});
