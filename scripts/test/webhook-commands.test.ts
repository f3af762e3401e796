// The admin CLI's webhook commands against real PostgreSQL and Redis: endpoints listed across accounts, an endpoint's
// deliveries, and replays that put jobs on the delivery queue and enable a disabled endpoint, as the partner API does.
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DELIVERIES_QUEUE } from '@backbone/contracts';
import { createPartner } from '@backbone/db';
import { createWebhookEndpoint } from '@backbone/use-cases';
import { createTestAccount, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { webhookCommands } from '../admin/webhook.commands.js';

const db = useTestDatabase();
const redis = useTestRedis();
const policy = { allowedHosts: [] };
let jobs: Queue;

// Commands return plain JSON-able objects; tests read their members freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = async (command: string, options: Record<string, string | boolean>): Promise<any> => {
  const result = await webhookCommands[command]!.run(
    { prefix: redis.prefix, ...options },
    { pool: db.pool, redisUrl: redis.redisUrl, queuePrefix: redis.prefix },
  );
  return JSON.parse(JSON.stringify(result));
};

async function failedDelivery(endpointId: string, accountId: string, createdAt: string): Promise<string> {
  const { rows } = await db.pool.query<{ id: string }>(
    `INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload, status, attempt_count, created_at, failed_at)
     VALUES ($1, $2, gen_random_uuid(), 'booking.created', '{}', 'failed', 12, $3, now()) RETURNING id`,
    [endpointId, accountId, createdAt],
  );
  return rows[0]!.id;
}

const accounts: Array<{ id: string; partnerId: string; endpointId: string }> = [];

beforeAll(async () => {
  jobs = new Queue(WEBHOOK_DELIVERIES_QUEUE, { connection: redis.connection(), prefix: redis.prefix });
  for (const name of ['First', 'Second']) {
    const { account } = await createTestAccount(db.pool, { name });
    const partner = await createPartner(db.pool, account.id, `${name} OTA`);
    const owner = { accountId: account.id, partnerId: partner.id };
    const endpoint = await createWebhookEndpoint({ pool: db.pool, destinationPolicy: policy }, owner, { Url: `https://93.184.216.34/${name}` });
    accounts.push({ id: account.id, partnerId: partner.id, endpointId: endpoint.ID });
  }
});
afterAll(() => jobs.close());

describe('admin CLI: webhook commands', () => {
  it('lists endpoints of every account, of one account, or of one partner, with their owner and without secrets', async () => {
    const [first, second] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
    const all = await run('list-webhooks', {});
    expect(all.map((e: { ID: string }) => e.ID)).toEqual(expect.arrayContaining([first.endpointId, second.endpointId]));
    const ofFirst = await run('list-webhooks', { account: first.id });
    expect(ofFirst).toEqual([
      {
        AccountID: first.id,
        PartnerID: first.partnerId,
        ID: first.endpointId,
        Url: 'https://93.184.216.34/First',
        EventTypes: expect.any(Array),
        CreatedAt: expect.any(String),
        Disabled: false,
        DisabledAt: null,
        DisabledReason: null,
        FailingSince: null,
      },
    ]);
    expect(JSON.stringify(all)).not.toContain('whsec_');
    expect(await run('list-webhooks', { partner: second.partnerId })).toEqual([expect.objectContaining({ ID: second.endpointId })]);
    await expect(run('list-webhooks', { account: 'nope' })).rejects.toThrow('--account must be a UUID');
  });

  it("shows an endpoint's deliveries and replays one, or every failed one since an instant, enabling the endpoint", async () => {
    const { id: accountId, endpointId } = accounts[0]!;
    const old = await failedDelivery(endpointId, accountId, '2026-11-01T00:00:00Z');
    const recent = [await failedDelivery(endpointId, accountId, '2026-11-05T00:00:00Z'), await failedDelivery(endpointId, accountId, '2026-11-06T00:00:00Z')];
    await db.pool.query(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'failed for 5 days' WHERE id = $1`, [endpointId]);

    const listed = await run('webhook-deliveries', { endpoint: endpointId, status: 'failed' });
    expect(listed.Deliveries.map((d: { ID: string }) => d.ID)).toEqual([...recent].reverse().concat(old));

    expect(await run('replay-webhook-deliveries', { endpoint: endpointId, since: '2026-11-04T00:00:00Z' })).toEqual({ Replayed: 2 });
    for (const id of recent) expect((await jobs.getJob(`${id}.r1`))?.data).toEqual({ DeliveryID: id, AccountID: accountId });
    expect((await run('list-webhooks', { account: accountId }))[0]).toMatchObject({ Disabled: false, FailingSince: null });

    const one = await run('replay-webhook-deliveries', { endpoint: endpointId, delivery: old });
    expect(one).toMatchObject({ Replayed: 1, Delivery: { ID: old, Status: 'pending' } });
    expect(await jobs.getJob(`${old}.r1`)).toBeDefined();
    expect((await run('webhook-deliveries', { endpoint: endpointId, status: 'failed' })).Deliveries).toEqual([]);
  });

  it('refuses what it cannot act on, with a message', async () => {
    const { endpointId } = accounts[1]!;
    await expect(run('webhook-deliveries', {})).rejects.toThrow('--endpoint is required');
    await expect(run('webhook-deliveries', { endpoint: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow('no webhook endpoint');
    await expect(run('webhook-deliveries', { endpoint: endpointId, status: 'lost' })).rejects.toThrow('--status must be one of');
    await expect(run('replay-webhook-deliveries', { endpoint: endpointId })).rejects.toThrow('exactly one of');
    await expect(run('replay-webhook-deliveries', { endpoint: endpointId, since: 'yesterday' })).rejects.toThrow('--since must be an ISO 8601 instant');
    await expect(run('replay-webhook-deliveries', { endpoint: endpointId, delivery: '00000000-0000-4000-8000-000000000000' })).rejects.toThrow('not found');
  });
});
