// The local gateway (npm start) in front of the real operator app: the console signs in and writes through it with
// the gateway's own origin; the caller's address, scheme and host are what the gateway saw, whatever the client sent
// in X-Forwarded-* headers (the operator API trusts a proxy on loopback for them).
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { createTestAccount, freePort, request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import { createOperatorUser } from '@backbone/use-cases';
import { createGateway } from '../gateway.js';

const SESSION = '/api/v2/operator/session';
const PASSWORD = 'correct horse battery';

const db = useTestDatabase();
const redis = useTestRedis();
let queues: EventQueues | undefined;
const operatorApi = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  return createTestOperatorApp({
    pool: db.pool,
    redis: connection,
    redisUrl: redis.redisUrl,
    prefix: redis.prefix,
    queues,
    signIn: { maxFailures: 3, windowSeconds: 60 },
  });
});
let gateway: ReturnType<typeof createGateway>;
let url: string;

beforeAll(async () => {
  gateway = createGateway({
    partnerApi: `http://127.0.0.1:${await freePort()}`,
    usageApi: `http://127.0.0.1:${await freePort()}`,
    operatorApi: operatorApi.url,
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    gateway.close(() => resolve());
    gateway.closeAllConnections();
  });
  if (queues) await closeQueues(queues);
});

async function owner(): Promise<string> {
  const { account } = await createTestAccount(db.pool);
  const email = `owner-${account.id.slice(0, 8)}@example.com`;
  await createOperatorUser({ pool: db.pool }, { accountId: account.id, email, role: 'owner', password: PASSWORD, actor: { kind: 'system' } });
  return email;
}

const signIn = (email: string, password: string, headers: Record<string, string> = {}) =>
  request(url, 'POST', SESSION, { body: { Email: email, Password: password }, headers: { origin: url, ...headers } });

describe('the operator API behind the dev gateway', () => {
  it("takes the gateway's origin as its own: the console signs in and signs out through it; another scheme is another origin", async () => {
    const email = await owner();
    const signedIn = await signIn(email, PASSWORD);
    expect(signedIn.status).toBe(204);
    const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
    expect((await request(url, 'GET', SESSION, { headers: { cookie } })).status).toBe(200);
    expect((await request(url, 'DELETE', SESSION, { headers: { cookie, origin: url.replace('http:', 'https:') } })).status).toBe(403);
    expect((await request(url, 'DELETE', SESSION, { headers: { cookie, origin: url } })).status).toBe(204);
  });

  it('believes no X-Forwarded-Host or -Proto the client sends', async () => {
    const email = await owner();
    const cookie = (await signIn(email, PASSWORD)).headers.get('set-cookie')!.split(';')[0]!;
    const spoofed = { cookie, origin: 'https://evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    expect((await request(url, 'DELETE', SESSION, { headers: spoofed })).status).toBe(403);
    expect((await request(url, 'GET', SESSION, { headers: { cookie } })).status).toBe(200);
  });

  it('counts failed sign-ins for the address it saw, whatever X-Forwarded-For the client sends', async () => {
    const email = await owner();
    for (let i = 1; i <= 3; i++) expect((await signIn(email, 'wrong password!!', { 'x-forwarded-for': `203.0.113.${i}` })).status).toBe(401);
    const blocked = await signIn(email, PASSWORD, { 'x-forwarded-for': '203.0.113.99' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
