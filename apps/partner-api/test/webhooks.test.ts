// The partner webhook API through HTTP against real PostgreSQL and Redis: registering (the secret shown once, at
// most five a partner, the forgery table with and without the allowance), listing, the deliveries with their
// attempts, replays onto the real BullMQ queue, a queue that is down, updating, deletion, and the wall between partners.
// Deliveries and attempts are written by the webhook worker; here they are rows the test inserts.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERIES_QUEUE, WEBHOOK_EVENT_TYPES } from '@backbone/contracts';
import { createApiKey, createPartner } from '@backbone/db';
import { createRedisConnection, openWebhookDeliveryQueue, type WebhookDeliveryQueue } from '@backbone/publisher';
import { request, useTestRedis, useTestServer } from '@backbone/testkit';
import { createOperator, createTestPartnerApp, databaseFingerprint, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const WEBHOOKS = '/api/v2/ota/partner/webhooks';
const PUBLIC_URL = 'https://93.184.216.34/hooks/bookings';
const FORGERY_HOSTS = ['127.0.0.1', '10.0.0.1', '169.254.169.254', '::1', '0.0.0.0', 'localhost'];

const redis = useTestRedis();
const queues: WebhookDeliveryQueue[] = [];
const { db, server } = usePartnerApi({
  webhooks: () => {
    const queue = openWebhookDeliveryQueue(redis.connection(), { prefix: redis.prefix });
    queues.push(queue);
    return { webhookDeliveries: queue };
  },
});
// The same app allowing the forgery table's hosts, as WEBHOOK_ALLOWED_HOSTS would.
const allowing = useTestServer(() => createTestPartnerApp(db.pool, { webhooks: { destinationPolicy: { allowedHosts: FORGERY_HOSTS } } }));
// And one whose Redis does not answer: nobody listens on port 1.
let deadRedis: Redis;
const queueDown = useTestServer(() => {
  deadRedis = createRedisConnection('redis://127.0.0.1:1', 'producer');
  const queue = openWebhookDeliveryQueue(deadRedis, { prefix: redis.prefix, timeoutMs: 300 });
  queues.push(queue);
  return createTestPartnerApp(db.pool, { webhooks: { webhookDeliveries: queue } });
});

let op: Operator;
let jobs: Queue;

beforeAll(async () => {
  op = await createOperator(db.pool);
  jobs = new Queue(WEBHOOK_DELIVERIES_QUEUE, { connection: redis.connection(), prefix: redis.prefix });
});

afterAll(async () => {
  await jobs.close();
  for (const queue of queues) await queue.close().catch(() => undefined);
  deadRedis.disconnect();
});

/** An ota key of a new partner of `accountId` (each partner has its own five endpoints). */
async function newPartnerKey(accountId: string, name: string): Promise<string> {
  const partner = await createPartner(db.pool, accountId, `${name} ${Math.random().toString(36).slice(2, 8)}`);
  return (await createApiKey(db.pool, accountId, { name, scopes: ['ota'], partnerId: partner.id })).secret;
}

async function register(key: string, body: Record<string, unknown>, baseUrl = server.url) {
  return request(baseUrl, 'POST', WEBHOOKS, { key, body });
}

interface DeliveryFixture {
  status: 'pending' | 'delivered' | 'failed';
  createdAt?: string;
  attempts?: Array<{ statusCode: number | null; error?: string; excerpt?: string; durationMs: number }>;
}

/** A delivery row as the webhook worker would have written it, with its attempts. */
async function addDelivery(endpointId: string, accountId: string, fixture: DeliveryFixture): Promise<string> {
  const attempts = fixture.attempts ?? [];
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload, status, attempt_count, created_at, next_attempt_at, delivered_at, failed_at)
     VALUES ($1, $2, gen_random_uuid(), 'booking.confirmed', '{"type":"booking.confirmed"}', $3, $4, coalesce($5::timestamptz, now()),
             CASE WHEN $3 = 'pending' THEN now() + interval '1 minute' END, CASE WHEN $3 = 'delivered' THEN now() END, CASE WHEN $3 = 'failed' THEN now() END)
     RETURNING id`,
    [endpointId, accountId, fixture.status, attempts.length, fixture.createdAt ?? null],
  );
  const id = rows[0]!.id;
  for (const [i, a] of attempts.entries()) {
    await db.pool.query(
      `INSERT INTO webhook_attempts (delivery_id, attempted_at, duration_ms, status_code, error, response_excerpt) VALUES ($1, now() - make_interval(mins => $2), $3, $4, $5, $6)`,
      [id, attempts.length - i, a.durationMs, a.statusCode, a.error ?? null, a.excerpt ?? null],
    );
  }
  return id;
}

async function deliveryRow(id: string) {
  const { rows } = await db.pool.query<{ status: string; replay_count: number; next_attempt_at: Date | null }>(
    `SELECT status, replay_count, next_attempt_at FROM webhook_deliveries WHERE id = $1`,
    [id],
  );
  return rows[0];
}

async function disable(endpointId: string): Promise<void> {
  await db.pool.query(
    `UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'failed every attempt for 5 days', failing_since = now() - interval '5 days' WHERE id = $1`,
    [endpointId],
  );
}

describe('registering an endpoint', () => {
  it('answers 201 with the secret, once: the list never shows it, and it verifies a Standard Webhooks signature', async () => {
    const key = await newPartnerKey(op.account.id, 'Signer');
    const res = await register(key, { Url: PUBLIC_URL });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      ID: expect.any(String),
      Url: PUBLIC_URL,
      EventTypes: [...WEBHOOK_EVENT_TYPES],
      CreatedAt: expect.any(String),
      Secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { rows } = await db.pool.query<{ secret: string }>(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [res.body.ID]);
    expect(rows[0]!.secret).toBe(res.body.Secret);

    const body = '{"type":"booking.created","timestamp":"2026-11-23T12:00:00Z","data":{}}';
    const now = new Date();
    const headers = {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(rows[0]!.secret).sign('evt_1', now, body),
    };
    expect(new Webhook(res.body.Secret).verify(body, headers)).toEqual(JSON.parse(body));

    const list = await request(server.url, 'GET', WEBHOOKS, { key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        ID: res.body.ID,
        Url: PUBLIC_URL,
        EventTypes: [...WEBHOOK_EVENT_TYPES],
        CreatedAt: res.body.CreatedAt,
        Disabled: false,
        DisabledAt: null,
        DisabledReason: null,
        FailingSince: null,
      },
    ]);
    expect(list.text).not.toContain('whsec_');
  });

  it('keeps the event types asked for and the URL as normalised', async () => {
    const key = await newPartnerKey(op.account.id, 'Picky');
    const res = await register(key, { Url: 'HTTPS://93.184.216.34:443/a/../hook?x=1', EventTypes: ['booking.cancelled', 'booking.created'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ Url: 'https://93.184.216.34/hook?x=1', EventTypes: ['booking.cancelled', 'booking.created'] });
  });

  it('refuses a sixth endpoint with 409, and eight at once leave exactly five', async () => {
    const key = await newPartnerKey(op.account.id, 'Greedy');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => register(key, { Url: `${PUBLIC_URL}/${i}` })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.status === 409);
    expect(refused).toHaveLength(3);
    expect(refused[0]!.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(refused[0]!.body).toMatchObject({ type: `${PROBLEM_BASE}/webhook-endpoint-limit`, status: 409, limit: 5 });
    expect((await request(server.url, 'GET', WEBHOOKS, { key })).body).toHaveLength(5);

    const before = await databaseFingerprint(db.pool);
    expect((await register(key, { Url: PUBLIC_URL })).status).toBe(409);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('allows plain http only to an allowed host', async () => {
    const key = await newPartnerKey(op.account.id, 'Local');
    const refused = await register(key, { Url: 'http://127.0.0.1:9000/hook' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field: 'Url', message: 'Url refused: http to 127.0.0.1 (https only).' }]);
    const accepted = await register(key, { Url: 'http://127.0.0.1:9000/hook' }, allowing.url);
    expect(accepted.status).toBe(201);
    expect(accepted.body.Url).toBe('http://127.0.0.1:9000/hook');
  });
});

describe('the forgery table: refused without the allowance, accepted with it', () => {
  it.each([
    ['https://127.0.0.1/hook', 'loopback', 'https://127.0.0.1/hook'],
    ['https://10.0.0.1/hook', 'private', 'https://10.0.0.1/hook'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata', 'https://169.254.169.254/latest/meta-data/'],
    ['https://[::1]/hook', 'loopback', 'https://[::1]/hook'],
    ['https://0.0.0.0/hook', 'unspecified', 'https://0.0.0.0/hook'],
    ['https://2130706433/hook', 'loopback', 'https://127.0.0.1/hook'],
    ['https://localhost/hook', 'localhost resolves to', 'https://localhost/hook'],
  ])('%s (%s)', async (url, why, normalised) => {
    const key = await newPartnerKey(op.account.id, 'Forger');
    const before = await databaseFingerprint(db.pool);
    const refused = await register(key, { Url: url });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, errors: [{ field: 'Url', message: expect.stringContaining(why) }] });
    expect(await databaseFingerprint(db.pool)).toEqual(before);

    const accepted = await register(key, { Url: url }, allowing.url);
    expect(accepted.status).toBe(201);
    expect(accepted.body.Url).toBe(normalised);
  });
});

describe('deliveries', () => {
  let key: string;
  let endpoint: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    key = await newPartnerKey(op.account.id, 'Reader');
    endpoint = (await register(key, { Url: PUBLIC_URL })).body.ID;
    ids.oldest = await addDelivery(endpoint, op.account.id, {
      status: 'delivered',
      createdAt: '2026-11-01T10:00:00.000001Z',
      attempts: [{ statusCode: 204, durationMs: 40 }],
    });
    ids.failed = await addDelivery(endpoint, op.account.id, {
      status: 'failed',
      createdAt: '2026-11-01T10:00:00.000002Z',
      attempts: [
        { statusCode: null, error: 'connect ECONNREFUSED', durationMs: 3 },
        { statusCode: 500, excerpt: 'Internal oops', durationMs: 120 },
      ],
    });
    ids.newest = await addDelivery(endpoint, op.account.id, { status: 'pending', createdAt: '2026-11-02T10:00:00Z' });
  });

  it('lists them newest first, each with its attempts oldest first', async () => {
    const res = await request(server.url, 'GET', `${WEBHOOKS}/${endpoint}/deliveries`, { key });
    expect(res.status).toBe(200);
    expect(res.body.Next).toBeNull();
    expect(res.body.Deliveries.map((d: { ID: string }) => d.ID)).toEqual([ids.newest, ids.failed, ids.oldest]);
    expect(res.body.Deliveries[1]).toEqual({
      ID: ids.failed,
      EventID: expect.any(String),
      EventType: 'booking.confirmed',
      Status: 'failed',
      AttemptCount: 2,
      NextAttemptAt: null,
      CreatedAt: '2026-11-01T10:00:00.000Z',
      DeliveredAt: null,
      FailedAt: expect.any(String),
      Attempts: [
        { AttemptedAt: expect.any(String), StatusCode: null, DurationMs: 3, Error: 'connect ECONNREFUSED', ResponseExcerpt: null },
        { AttemptedAt: expect.any(String), StatusCode: 500, DurationMs: 120, Error: null, ResponseExcerpt: 'Internal oops' },
      ],
    });
    expect(res.body.Deliveries[0]).toMatchObject({ Status: 'pending', NextAttemptAt: expect.any(String), Attempts: [] });
  });

  it('filters by Status', async () => {
    const res = await request(server.url, 'GET', `${WEBHOOKS}/${endpoint}/deliveries?Status=failed`, { key });
    expect(res.body.Deliveries.map((d: { ID: string }) => d.ID)).toEqual([ids.failed]);
  });

  it('pages by keyset, telling apart deliveries a microsecond apart, and a delivery made meanwhile does not shift the pages', async () => {
    const first = await request(server.url, 'GET', `${WEBHOOKS}/${endpoint}/deliveries?Limit=2`, { key });
    expect(first.body.Deliveries.map((d: { ID: string }) => d.ID)).toEqual([ids.newest, ids.failed]);
    expect(first.body.Next).toEqual(expect.any(String));
    await addDelivery(endpoint, op.account.id, { status: 'pending' });
    const second = await request(server.url, 'GET', `${WEBHOOKS}/${endpoint}/deliveries?Limit=2&Cursor=${first.body.Next}`, { key });
    expect(second.body.Deliveries.map((d: { ID: string }) => d.ID)).toEqual([ids.oldest]);
    expect(second.body.Next).toBeNull();
  });
});

describe('replay', () => {
  let key: string;
  let endpoint: string;

  beforeAll(async () => {
    key = await newPartnerKey(op.account.id, 'Replayer');
    endpoint = (await register(key, { Url: PUBLIC_URL })).body.ID;
  });

  const replayOne = (deliveryId: string, baseUrl = server.url) => request(baseUrl, 'POST', `${WEBHOOKS}/${endpoint}/deliveries/${deliveryId}/replay`, { key });

  it('puts a failed delivery back to pending with a fresh job on the delivery queue, and enables a disabled endpoint', async () => {
    const id = await addDelivery(endpoint, op.account.id, { status: 'failed', attempts: [{ statusCode: 500, durationMs: 10 }] });
    await disable(endpoint);
    const res = await replayOne(id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ ID: id, Status: 'pending', NextAttemptAt: expect.any(String), AttemptCount: 1 });

    const job = await jobs.getJob(`${id}.r1`);
    expect(job?.name).toBe('deliver');
    expect(job?.data).toEqual({ DeliveryID: id, AccountID: op.account.id });
    expect(job?.opts).toMatchObject({ attempts: 10, backoff: { type: 'exponential', delay: 1000 } });
    const listed = (await request(server.url, 'GET', WEBHOOKS, { key })).body[0];
    expect(listed).toMatchObject({ ID: endpoint, Disabled: false, DisabledAt: null, DisabledReason: null, FailingSince: null });

    expect((await replayOne(id)).body).toMatchObject({ status: 409, type: `${PROBLEM_BASE}/invalid-transition` });

    // It failed again: the next replay gets a job id of its own, which BullMQ does not take for the first.
    await db.pool.query(`UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1`, [id]);
    expect((await replayOne(id)).status).toBe(202);
    expect((await jobs.getJob(`${id}.r2`))?.data).toEqual({ DeliveryID: id, AccountID: op.account.id });
  });

  it('replays a delivered delivery too', async () => {
    const id = await addDelivery(endpoint, op.account.id, { status: 'delivered', attempts: [{ statusCode: 200, durationMs: 5 }] });
    expect((await replayOne(id)).status).toBe(202);
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', replay_count: 1 });
    expect(await jobs.getJob(`${id}.r1`)).toBeDefined();
  });

  it('replays every failed delivery created since an instant, and only those', async () => {
    const other = (await register(key, { Url: `${PUBLIC_URL}/since` })).body.ID;
    const before = await addDelivery(other, op.account.id, { status: 'failed', createdAt: '2026-11-10T09:59:59Z' });
    const after = [
      await addDelivery(other, op.account.id, { status: 'failed', createdAt: '2026-11-10T10:00:00Z' }),
      await addDelivery(other, op.account.id, { status: 'failed', createdAt: '2026-11-11T00:00:00Z' }),
    ];
    const delivered = await addDelivery(other, op.account.id, { status: 'delivered', createdAt: '2026-11-12T00:00:00Z' });
    const res = await request(server.url, 'POST', `${WEBHOOKS}/${other}/replay`, { key, body: { Since: '2026-11-10T11:00:00+01:00' } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ Replayed: 2 });
    for (const id of after) {
      expect((await deliveryRow(id))?.status).toBe('pending');
      expect((await jobs.getJob(`${id}.r1`))?.data).toEqual({ DeliveryID: id, AccountID: op.account.id });
    }
    expect(await deliveryRow(before)).toMatchObject({ status: 'failed', replay_count: 0 });
    expect(await deliveryRow(delivered)).toMatchObject({ status: 'delivered', replay_count: 0 });
    expect((await request(server.url, 'POST', `${WEBHOOKS}/${other}/replay`, { key, body: { Since: '2026-11-10T11:00:00+01:00' } })).body).toEqual({
      Replayed: 0,
    });
  });

  it('answers 503 and changes nothing when the delivery queue does not take the job', async () => {
    const id = await addDelivery(endpoint, op.account.id, { status: 'failed' });
    await disable(endpoint);
    const before = await databaseFingerprint(db.pool);
    const res = await replayOne(id, queueDown.url);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unavailable` });
    const since = await request(queueDown.url, 'POST', `${WEBHOOKS}/${endpoint}/replay`, { key, body: { Since: '2000-01-01T00:00:00Z' } });
    expect(since.status).toBe(503);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    expect(await deliveryRow(id)).toMatchObject({ status: 'failed', replay_count: 0, next_attempt_at: null });
    expect((await request(server.url, 'GET', WEBHOOKS, { key })).body[0]).toMatchObject({ Disabled: true, DisabledReason: 'failed every attempt for 5 days' });
  });
});

describe('updating an endpoint', () => {
  it('changes the members sent, keeps the others and the secret, and enables a disabled endpoint', async () => {
    const key = await newPartnerKey(op.account.id, 'Mover');
    const created = (await register(key, { Url: PUBLIC_URL, EventTypes: ['booking.created'] })).body;
    await disable(created.ID);
    const moved = await request(server.url, 'PATCH', `${WEBHOOKS}/${created.ID}`, { key, body: { Url: 'HTTPS://93.184.216.34:443/hooks/../v2' } });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({
      ID: created.ID,
      Url: 'https://93.184.216.34/v2',
      EventTypes: ['booking.created'],
      CreatedAt: created.CreatedAt,
      Disabled: false,
      DisabledAt: null,
      DisabledReason: null,
      FailingSince: null,
    });
    expect((await request(server.url, 'GET', WEBHOOKS, { key })).body).toEqual([moved.body]);
    const { rows } = await db.pool.query<{ secret: string }>(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [created.ID]);
    expect(rows[0]!.secret).toBe(created.Secret);

    const retyped = await request(server.url, 'PATCH', `${WEBHOOKS}/${created.ID.toUpperCase()}`, {
      key,
      body: { EventTypes: ['booking.cancelled', 'booking.expired'] },
    });
    expect(retyped.status).toBe(200);
    expect(retyped.body).toMatchObject({ Url: 'https://93.184.216.34/v2', EventTypes: ['booking.cancelled', 'booking.expired'] });
    // The same Url again is how a partner enables the endpoint after fixing what DisabledReason said.
    await disable(created.ID);
    const again = await request(server.url, 'PATCH', `${WEBHOOKS}/${created.ID}`, { key, body: { Url: 'https://93.184.216.34/v2' } });
    expect(again.body).toMatchObject({ Disabled: false, DisabledAt: null, DisabledReason: null, FailingSince: null });
  });

  it('refuses what registration refuses (422), a malformed ID (400) and an unknown endpoint (404), and changes nothing', async () => {
    const key = await newPartnerKey(op.account.id, 'Clumsy');
    const endpoint = (await register(key, { Url: PUBLIC_URL })).body.ID;
    await disable(endpoint);
    const before = await databaseFingerprint(db.pool);
    const patch = (body: unknown, id: string = endpoint) => request(server.url, 'PATCH', `${WEBHOOKS}/${id}`, { key, body });

    for (const body of [{}, { Url: '' }, { EventTypes: [] }, { EventTypes: ['booking.nope'] }, { Secret: 'whsec_x' }, [], 'x']) {
      const answer = await patch(body);
      expect(answer.status).toBe(422);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/validation`);
    }
    const refused = await patch({ Url: 'http://127.0.0.1:9000/hook' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field: 'Url', message: 'Url refused: http to 127.0.0.1 (https only).' }]);
    expect((await patch({ Url: PUBLIC_URL }, 'not-a-uuid')).status).toBe(400);
    expect((await patch({ Url: PUBLIC_URL }, '00000000-0000-4000-8000-000000000000')).body).toMatchObject({ status: 404, type: `${PROBLEM_BASE}/not-found` });
    const notJson = await request(server.url, 'PATCH', `${WEBHOOKS}/${endpoint}`, { key, headers: { 'content-type': 'text/plain' }, rawBody: 'Url=x' });
    expect(notJson.status).toBe(415);
    expect(await databaseFingerprint(db.pool)).toEqual(before);

    // A URL registered before the guard refused it is vetted again: changing only the event types does not enable it.
    await db.pool.query(`UPDATE webhook_endpoints SET url = 'https://127.0.0.1/hook' WHERE id = $1`, [endpoint]);
    const kept = await patch({ EventTypes: ['booking.created'] });
    expect(kept.status).toBe(422);
    expect(kept.body.errors).toEqual([{ field: 'Url', message: 'Url refused: 127.0.0.1 is a loopback address.' }]);
    expect((await request(server.url, 'GET', WEBHOOKS, { key })).body[0]).toMatchObject({ Disabled: true, EventTypes: [...WEBHOOK_EVENT_TYPES] });
  });
});

describe('deleting an endpoint', () => {
  it('answers 204, takes its deliveries and attempts with it, and 404 the second time', async () => {
    const key = await newPartnerKey(op.account.id, 'Leaver');
    const endpoint = (await register(key, { Url: PUBLIC_URL })).body.ID;
    const delivery = await addDelivery(endpoint, op.account.id, { status: 'failed', attempts: [{ statusCode: 500, durationMs: 1 }] });
    const res = await request(server.url, 'DELETE', `${WEBHOOKS}/${endpoint}`, { key });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await request(server.url, 'GET', WEBHOOKS, { key })).body).toEqual([]);
    const { rows } = await db.pool.query<{ n: number }>(
      `SELECT (SELECT count(*) FROM webhook_deliveries WHERE id = $1) + (SELECT count(*) FROM webhook_attempts WHERE delivery_id = $1) AS n`,
      [delivery],
    );
    expect(Number(rows[0]!.n)).toBe(0);
    expect((await request(server.url, 'DELETE', `${WEBHOOKS}/${endpoint}`, { key })).body).toMatchObject({ status: 404, type: `${PROBLEM_BASE}/not-found` });
  });
});

describe('the partner wall', () => {
  it('another partner of the same account, or of another account, can neither see, read the deliveries of, replay, update nor delete the endpoint', async () => {
    const owner = await newPartnerKey(op.account.id, 'Owner');
    const endpoint = (await register(owner, { Url: PUBLIC_URL })).body.ID;
    const delivery = await addDelivery(endpoint, op.account.id, { status: 'failed' });
    const sameAccount = await newPartnerKey(op.account.id, 'Neighbour');
    const otherAccount = (await createOperator(db.pool)).ota;
    const before = await databaseFingerprint(db.pool);

    for (const key of [sameAccount, otherAccount]) {
      expect((await request(server.url, 'GET', WEBHOOKS, { key })).body).toEqual([]);
      const answers = await Promise.all([
        request(server.url, 'GET', `${WEBHOOKS}/${endpoint}/deliveries`, { key }),
        request(server.url, 'POST', `${WEBHOOKS}/${endpoint}/deliveries/${delivery}/replay`, { key }),
        request(server.url, 'POST', `${WEBHOOKS}/${endpoint}/replay`, { key, body: { Since: '2000-01-01T00:00:00Z' } }),
        request(server.url, 'DELETE', `${WEBHOOKS}/${endpoint}`, { key }),
        request(server.url, 'PATCH', `${WEBHOOKS}/${endpoint}`, { key, body: { Url: PUBLIC_URL } }),
      ]);
      for (const answer of answers) expect(answer.body).toMatchObject({ status: 404, type: `${PROBLEM_BASE}/not-found` });
    }
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    expect(await jobs.getJob(`${delivery}.r1`)).toBeUndefined();

    // A delivery of another endpoint cannot be replayed through the caller's own endpoint either.
    const own = (await register(sameAccount, { Url: PUBLIC_URL })).body.ID;
    expect((await request(server.url, 'POST', `${WEBHOOKS}/${own}/deliveries/${delivery}/replay`, { key: sameAccount })).status).toBe(404);
    expect((await request(server.url, 'GET', `${WEBHOOKS}/${endpoint}/deliveries`, { key: owner })).body.Deliveries).toHaveLength(1);
  });
});
