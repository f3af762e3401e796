// An endpoint whose destination becomes refused (the worker's allowed hosts changed): the worker disables it at the
// first refused attempt, with the guard's reason, which the partner reads through the partner API; nothing more is
// attempted; once the configuration allows the destination again, the partner's update enables the endpoint and
// deliveries resume. The partner API and the worker run in-process on this file's PostgreSQL schema and Redis prefix.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { openWebhookDeliveryQueue, type WebhookDeliveryQueue } from '@backbone/publisher';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestAccount, request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import {
  attemptsOf,
  bookingConfirmed,
  createTestPartner,
  deliveriesOf,
  startReceiver,
  untilDeliveries,
  useQueues,
  useWebhookWorkers,
  waitFor,
  type Receiver,
} from './support.js';
import type { WebhookWorker } from '../src/index.js';

const WEBHOOKS = '/api/v2/ota/partner/webhooks';

const db = useTestDatabase();
const redis = useTestRedis();
const queues = useQueues(redis);
const workers = useWebhookWorkers(db, redis);
let deliveryQueue: WebhookDeliveryQueue | undefined;
// The partner API allows the local receiver, as WEBHOOK_ALLOWED_HOSTS=127.0.0.1 would.
const partnerApi = useTestServer(() => {
  deliveryQueue = openWebhookDeliveryQueue(redis.connection(), { prefix: redis.prefix });
  return createTestPartnerApp(db.pool, { webhooks: { destinationPolicy: { allowedHosts: ['127.0.0.1'] }, webhookDeliveries: deliveryQueue } });
});
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await deliveryQueue?.close();
});

/** Publishes a booking.confirmed of the partner and waits until its fan-out job has run. */
async function publishAndFanOut(accountId: string, partnerId: string): Promise<void> {
  const event = bookingConfirmed(accountId, partnerId);
  await queues.publish('booking.confirmed', event);
  await waitFor('the event to be fanned out', async () => (await queues.bookingEvents().getJob(`${accountId}.${event.EventID}`))?.finishedOn !== undefined);
}

describe('a destination refused after registration', () => {
  it('disables the endpoint at the first refused attempt with a reason the partner reads; a partner update enables it again', async () => {
    const { account } = await createTestAccount(db.pool);
    const partner = await createTestPartner(db.pool, account.id);
    const key = (await createApiKey(db.pool, account.id, { name: 'Hooked', scopes: ['ota'], partnerId: partner })).secret;
    const url = `${receiver.url}/hooks/refused`;
    const registered = await request(partnerApi.url, 'POST', WEBHOOKS, { key, body: { Url: url, EventTypes: ['booking.confirmed'] } });
    expect(registered.status).toBe(201);
    const endpointId = registered.body.ID as string;
    receiver.route('/hooks/refused', registered.body.Secret as string);

    // Delivered while the worker allows the receiver's host.
    let worker: WebhookWorker = workers.start(redis.prefix, { allowedHosts: ['127.0.0.1'], retryDelaysMs: [100, 100] });
    await publishAndFanOut(account.id, partner);
    await untilDeliveries(db.pool, endpointId, 1, 'delivered');

    // The allowed hosts change: plain http to 127.0.0.1 is refused now. One attempt, no retries, the endpoint disabled.
    await worker.close();
    worker = workers.start(redis.prefix, { allowedHosts: [], retryDelaysMs: [100, 100] });
    await publishAndFanOut(account.id, partner);
    await waitFor('the refused delivery to fail', async () => (await deliveriesOf(db.pool, endpointId)).filter((d) => d.status === 'failed').length === 1);
    const refused = (await deliveriesOf(db.pool, endpointId)).find((d) => d.status === 'failed')!;
    expect(refused.attempt_count).toBe(1);
    const attempts = await attemptsOf(db.pool, refused.id);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.error).toBe('webhook destination refused: http to 127.0.0.1 (https only)');

    const listed = await request(partnerApi.url, 'GET', WEBHOOKS, { key });
    expect(listed.body).toEqual([
      expect.objectContaining({
        ID: endpointId,
        Disabled: true,
        DisabledAt: expect.any(String),
        DisabledReason:
          'The destination was refused: http to 127.0.0.1 (https only). Nothing more is sent until the endpoint is updated (PATCH /api/v2/ota/partner/webhooks/{ID}).',
      }),
    ]);
    const shown = await request(partnerApi.url, 'GET', `${WEBHOOKS}/${endpointId}/deliveries?Status=failed`, { key });
    expect(shown.body.Deliveries[0].Attempts).toEqual([
      expect.objectContaining({ StatusCode: null, Error: 'webhook destination refused: http to 127.0.0.1 (https only)' }),
    ]);

    // Nothing more is attempted: a later event makes no delivery at all.
    await publishAndFanOut(account.id, partner);
    expect(await deliveriesOf(db.pool, endpointId)).toHaveLength(2);
    expect(receiver.hits('/hooks/refused')).toBe(1);

    // The configuration allows the host again; the partner's update (its Url unchanged) enables the endpoint.
    await worker.close();
    workers.start(redis.prefix, { allowedHosts: ['127.0.0.1'], retryDelaysMs: [100, 100] });
    const updated = await request(partnerApi.url, 'PATCH', `${WEBHOOKS}/${endpointId}`, { key, body: { Url: url } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ Disabled: false, DisabledAt: null, DisabledReason: null, FailingSince: null });
    await publishAndFanOut(account.id, partner);
    await waitFor('the next event to be delivered', async () => (await deliveriesOf(db.pool, endpointId)).filter((d) => d.status === 'delivered').length === 2);
    expect(receiver.hits('/hooks/refused')).toBe(2);
  });
});
