// Admin commands for partners' webhook endpoints: list them across accounts, read an endpoint's deliveries, and replay
// them once a receiver is back (`npm run admin -- replay-webhook-deliveries --endpoint <id> --since <instant>`). They
// call the partner API's own use cases, for the endpoint's owner, so both see and change the same rows.
import { listWebhookDeliveriesQuerySchema, replayWebhookDeliveriesRequestSchema, type WebhookDeliveryStatus } from '@backbone/contracts';
import { findWebhookEndpointOwner, listAllWebhookEndpoints, readDatabaseIdentity, type Pool, type WebhookOwner } from '@backbone/db';
import { claimQueuePrefix, createRedisConnection, openWebhookDeliveryQueue, type WebhookDeliveryQueue } from '@backbone/publisher';
import { listWebhookDeliveries, replayWebhookDeliveries, replayWebhookDelivery, toWebhookEndpoint } from '@backbone/use-cases';
import { checkAgainstContract, requireOption, type AdminCommand, type AdminContext } from './command.js';

type Options = Record<string, string | boolean | string[] | undefined>;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

function optionalUuid(options: Options, name: string): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value)) throw new Error(`--${name} must be a UUID, got '${String(value)}'`);
  return value.toLowerCase();
}

async function endpointOwner(pool: Pool, options: Options): Promise<{ owner: WebhookOwner; endpointId: string }> {
  const endpointId = optionalUuid(options, 'endpoint');
  if (endpointId === undefined) throw new Error('--endpoint is required');
  const owner = await findWebhookEndpointOwner(pool, endpointId);
  if (!owner) throw new Error(`no webhook endpoint ${endpointId}`);
  return { owner, endpointId };
}

async function withDeliveryQueue<T>(options: Options, ctx: AdminContext, work: (queue: WebhookDeliveryQueue) => Promise<T>): Promise<T> {
  const prefix = typeof options.prefix === 'string' && options.prefix !== '' ? options.prefix : ctx.queuePrefix;
  const redis = createRedisConnection(ctx.redisUrl, 'producer');
  const queue = openWebhookDeliveryQueue(redis, { prefix });
  try {
    // The webhook worker that takes the job looks the delivery up in its own database: it must be this one.
    await claimQueuePrefix(redis, prefix, await readDatabaseIdentity(ctx.pool));
    return await work(queue);
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

export const webhookCommands: Record<string, AdminCommand> = {
  'list-webhooks': {
    summary: "List partners' webhook endpoints (every account's, or one account's or partner's), disabled ones marked.",
    usage: '[--account <id>] [--partner <id>]',
    options: { account: { type: 'string' }, partner: { type: 'string' } },
    async run(options, ctx) {
      const endpoints = await listAllWebhookEndpoints(ctx.pool, { accountId: optionalUuid(options, 'account'), partnerId: optionalUuid(options, 'partner') });
      return endpoints.map((endpoint) => ({ AccountID: endpoint.accountId, PartnerID: endpoint.partnerId, ...toWebhookEndpoint(endpoint) }));
    },
  },
  'webhook-deliveries': {
    summary: "An endpoint's deliveries with their attempts, newest first (as GET .../webhooks/{ID}/deliveries).",
    usage: '--endpoint <id> [--status pending|delivered|failed] [--limit 1-200] [--cursor <Next>]',
    options: { endpoint: { type: 'string' }, status: { type: 'string' }, limit: { type: 'string' }, cursor: { type: 'string' } },
    async run(options, ctx) {
      const { owner, endpointId } = await endpointOwner(ctx.pool, options);
      // The query as the API gets it, as text: the contract's check converts Limit to a number, as the API's does.
      const query: Record<string, unknown> = { Status: options.status, Limit: options.limit, Cursor: options.cursor };
      for (const member of Object.keys(query)) if (query[member] === undefined) delete query[member];
      checkAgainstContract(listWebhookDeliveriesQuerySchema, 'query', query, { Status: 'status', Limit: 'limit', Cursor: 'cursor' });
      const { Status: status, Limit: limit, Cursor: cursor } = query as { Status?: WebhookDeliveryStatus; Limit?: number; Cursor?: string };
      return listWebhookDeliveries(ctx, owner, { endpointId, status, limit, cursor });
    },
  },
  'replay-webhook-deliveries': {
    summary: "Queue an endpoint's deliveries again: one (--delivery) or every failed one created since an instant (--since). Enables a disabled endpoint.",
    usage: '--endpoint <id> (--delivery <id> | --since <ISO 8601 instant>) [--prefix <QUEUE_PREFIX>]',
    options: { endpoint: { type: 'string' }, delivery: { type: 'string' }, since: { type: 'string' }, prefix: { type: 'string' } },
    async run(options, ctx) {
      const { owner, endpointId } = await endpointOwner(ctx.pool, options);
      const deliveryId = optionalUuid(options, 'delivery');
      const since = options.since === undefined ? undefined : requireOption(options, 'since');
      if ((deliveryId === undefined) === (since === undefined)) throw new Error('give exactly one of --delivery <id> or --since <instant>');
      if (since !== undefined) checkAgainstContract(replayWebhookDeliveriesRequestSchema, 'body', { Since: since }, { Since: 'since' });
      return withDeliveryQueue(options, ctx, async (webhookDeliveries) => {
        const deps = { pool: ctx.pool, webhookDeliveries };
        if (deliveryId !== undefined) return { Replayed: 1, Delivery: await replayWebhookDelivery(deps, owner, { endpointId, deliveryId }) };
        return replayWebhookDeliveries(deps, owner, { endpointId, since: since! });
      });
    },
  },
};
