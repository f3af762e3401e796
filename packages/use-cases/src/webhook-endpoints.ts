// A partner's webhook endpoints: register one (its URL vetted against request forgery, its secret made here and
// shown once), list, update (which enables it again), delete, read its deliveries and replay them. The partner API and
// the admin CLI call these same functions; the admin CLI finds the owner from the endpoint id first.
import {
  MAX_WEBHOOK_ENDPOINTS_PER_PARTNER,
  WEBHOOK_EVENT_TYPES,
  type CreatedWebhookEndpoint,
  type CreateWebhookEndpointRequest,
  type UpdateWebhookEndpointRequest,
  type WebhookDeliveriesPage,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@backbone/contracts';
import {
  deleteWebhookEndpoint as deleteEndpointRow,
  enableWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  inTransaction,
  listWebhookDeliveries as listDeliveryRows,
  listWebhookEndpoints as listEndpointRows,
  lockPartnerEndpointCount,
  markDeliveryForReplay,
  markFailedDeliveriesForReplay,
  restoreDisabledState,
  revertReplay,
  updateWebhookEndpoint as updateEndpointRow,
  type DbClient,
  type DeliveryPosition,
  type DisabledState,
  type Pool,
  type ReplayedDelivery,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookOwner,
} from '@backbone/db';
import { DomainError, notFound, ValidationError } from '@backbone/domain';
import { EventQueueUnavailableError, type WebhookDeliveryQueue } from '@backbone/publisher';
import { DestinationRefusedError, generateSecret, vetDestination, type DestinationPolicy } from '@backbone/webhooks';
import { UnavailableError } from './errors.js';

const MAX_URL_LENGTH = 2000;
const DEFAULT_DELIVERIES_PAGE = 50;

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toWebhookEndpoint(record: WebhookEndpointRecord): WebhookEndpoint {
  return {
    ID: record.id,
    Url: record.url,
    EventTypes: record.eventTypes as WebhookEventType[],
    CreatedAt: record.createdAt.toISOString(),
    Disabled: record.disabledAt !== null,
    DisabledAt: iso(record.disabledAt),
    DisabledReason: record.disabledReason,
    FailingSince: iso(record.failingSince),
  };
}

function toWebhookDelivery(record: WebhookDeliveryRecord): WebhookDelivery {
  return {
    ID: record.id,
    EventID: record.eventId,
    EventType: record.eventType as WebhookEventType,
    Status: record.status,
    AttemptCount: record.attemptCount,
    NextAttemptAt: iso(record.nextAttemptAt),
    CreatedAt: record.createdAt.toISOString(),
    DeliveredAt: iso(record.deliveredAt),
    FailedAt: iso(record.failedAt),
    Attempts: record.attempts.map((a) => ({
      AttemptedAt: a.attemptedAt.toISOString(),
      StatusCode: a.statusCode,
      DurationMs: a.durationMs,
      Error: a.error,
      ResponseExcerpt: a.responseExcerpt,
    })),
  };
}

/** The URL as it will be called, or a 422 naming why it is refused. DNS is asked here, before any lock is taken. */
async function vettedUrl(url: string, policy: DestinationPolicy): Promise<string> {
  let vetted: URL;
  try {
    vetted = await vetDestination(url, policy);
  } catch (error) {
    if (error instanceof DestinationRefusedError) throw new ValidationError([{ field: 'Url', message: `Url refused: ${error.reason}.` }]);
    throw error;
  }
  if (vetted.href.length > MAX_URL_LENGTH)
    throw new ValidationError([{ field: 'Url', message: `Url must be at most ${MAX_URL_LENGTH} characters once normalised.` }]);
  return vetted.href;
}

export async function createWebhookEndpoint(
  deps: { pool: Pool; destinationPolicy: DestinationPolicy },
  owner: WebhookOwner,
  request: CreateWebhookEndpointRequest,
): Promise<CreatedWebhookEndpoint> {
  const url = await vettedUrl(request.Url, deps.destinationPolicy);
  const eventTypes = request.EventTypes ?? WEBHOOK_EVENT_TYPES;
  const secret = generateSecret();
  const record = await inTransaction(deps.pool, async (tx) => {
    const count = await lockPartnerEndpointCount(tx, owner);
    if (count === null) throw notFound('Partner');
    if (count >= MAX_WEBHOOK_ENDPOINTS_PER_PARTNER) {
      throw new DomainError('webhook-endpoint-limit', `A partner may have at most ${MAX_WEBHOOK_ENDPOINTS_PER_PARTNER} webhook endpoints; delete one first.`, {
        limit: MAX_WEBHOOK_ENDPOINTS_PER_PARTNER,
      });
    }
    return insertWebhookEndpoint(tx, owner, { url, eventTypes, secret });
  });
  const { ID, Url, EventTypes, CreatedAt } = toWebhookEndpoint(record);
  return { ID, Url, EventTypes, CreatedAt, Secret: secret };
}

export async function listWebhookEndpoints(deps: { pool: Pool }, owner: WebhookOwner): Promise<WebhookEndpoint[]> {
  return (await listEndpointRows(deps.pool, owner)).map(toWebhookEndpoint);
}

/**
 * Changes the members sent and enables the endpoint: the partner has acted on why it was disabled (a refused destination,
 * a receiver that was down). The URL it will be called at, new or kept, is vetted as at registration, so an update does
 * not enable a URL the guard now refuses.
 */
export async function updateWebhookEndpoint(
  deps: { pool: Pool; destinationPolicy: DestinationPolicy },
  owner: WebhookOwner,
  endpointId: string,
  request: UpdateWebhookEndpointRequest,
): Promise<WebhookEndpoint> {
  const newUrl = request.Url === undefined ? null : await vettedUrl(request.Url, deps.destinationPolicy);
  const id = endpointId.toLowerCase();
  if (newUrl === null) await vettedUrl((await ownedEndpoint(deps.pool, owner, id)).url, deps.destinationPolicy);
  const record = await updateEndpointRow(deps.pool, owner, id, { url: newUrl, eventTypes: request.EventTypes ?? null });
  if (!record) throw notFound('Webhook endpoint');
  return toWebhookEndpoint(record);
}

export async function deleteWebhookEndpoint(deps: { pool: Pool }, owner: WebhookOwner, endpointId: string): Promise<void> {
  if (!(await deleteEndpointRow(deps.pool, owner, endpointId.toLowerCase()))) throw notFound('Webhook endpoint');
}

async function ownedEndpoint(pool: Pool, owner: WebhookOwner, endpointId: string): Promise<WebhookEndpointRecord> {
  const endpoint = await findWebhookEndpoint(pool, owner, endpointId.toLowerCase());
  if (!endpoint) throw notFound('Webhook endpoint');
  return endpoint;
}

const POSITION_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const encodePosition = (position: DeliveryPosition) => Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');

/** A cursor this API gave, or a 422: nothing from a cursor reaches SQL unless it is a real instant and a UUID. */
function decodePosition(cursor: string): DeliveryPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof createdAt === 'string' && POSITION_INSTANT.test(createdAt) && typeof id === 'string' && UUID.test(id)) {
      // The milliseconds part must name the same instant back: refuses 2027-02-30 and year 0000, which PostgreSQL would not take.
      const millis = `${createdAt.slice(0, 23)}Z`;
      const date = new Date(millis);
      if (!Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1 && date.toISOString() === millis) return { createdAt, id };
    }
  } catch {
    // falls through to the validation error
  }
  throw new ValidationError([{ field: 'Cursor', message: 'Cursor must be the Next of an earlier answer.' }]);
}

export async function listWebhookDeliveries(
  deps: { pool: Pool },
  owner: WebhookOwner,
  request: { endpointId: string; status?: WebhookDeliveryStatus | undefined; limit?: number | undefined; cursor?: string | undefined },
): Promise<WebhookDeliveriesPage> {
  const after = request.cursor ? decodePosition(request.cursor) : null;
  const endpoint = await ownedEndpoint(deps.pool, owner, request.endpointId);
  const limit = request.limit ?? DEFAULT_DELIVERIES_PAGE;
  const page = await listDeliveryRows(deps.pool, owner, endpoint.id, { status: request.status, after, limit });
  return { Deliveries: page.deliveries.map(toWebhookDelivery), Next: page.deliveries.length === limit && page.last ? encodePosition(page.last) : null };
}

/**
 * Marks the deliveries pending and the endpoint enabled (committed first, so the worker that takes a job finds its
 * delivery pending), then queues one job each. When the queue does not take them, the marks are undone: nothing changed.
 */
async function replay(
  deps: { pool: Pool; webhookDeliveries: WebhookDeliveryQueue },
  owner: WebhookOwner,
  endpointId: string,
  mark: (tx: DbClient) => Promise<ReplayedDelivery[]>,
): Promise<ReplayedDelivery[]> {
  const { replayed, cleared } = await inTransaction(deps.pool, async (tx) => {
    const marked = await mark(tx);
    // A partner replaying deliveries asks for the endpoint to be tried again: a disabled one is enabled.
    return { replayed: marked, cleared: marked.length > 0 ? await enableWebhookEndpoint(tx, owner, endpointId) : null };
  });
  if (replayed.length === 0) return replayed;
  try {
    await deps.webhookDeliveries.enqueue(replayed.map((d) => ({ data: { DeliveryID: d.id, AccountID: owner.accountId }, jobId: `${d.id}.r${d.replayCount}` })));
  } catch (error) {
    if (!(error instanceof EventQueueUnavailableError)) throw error;
    await undoReplay(deps.pool, owner, endpointId, replayed, cleared);
    throw new UnavailableError('The webhook delivery queue is unreachable; nothing was replayed. Retry later.', { cause: error });
  }
  return replayed;
}

async function undoReplay(pool: Pool, owner: WebhookOwner, endpointId: string, replayed: ReplayedDelivery[], cleared: DisabledState | null): Promise<void> {
  await inTransaction(pool, async (tx) => {
    await revertReplay(tx, owner.accountId, replayed);
    if (cleared) await restoreDisabledState(tx, owner, endpointId, cleared);
  });
}

export async function replayWebhookDelivery(
  deps: { pool: Pool; webhookDeliveries: WebhookDeliveryQueue },
  owner: WebhookOwner,
  request: { endpointId: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const endpoint = await ownedEndpoint(deps.pool, owner, request.endpointId);
  const deliveryId = request.deliveryId.toLowerCase();
  if (!(await findWebhookDelivery(deps.pool, owner, endpoint.id, deliveryId))) throw notFound('Webhook delivery');
  const replayed = await replay(deps, owner, endpoint.id, (tx) => markDeliveryForReplay(tx, owner, endpoint.id, deliveryId));
  if (replayed.length === 0)
    throw new DomainError('invalid-transition', `Delivery ${deliveryId} is still pending: it is replayed once it has failed or been delivered.`);
  const delivery = await findWebhookDelivery(deps.pool, owner, endpoint.id, deliveryId);
  if (!delivery) throw notFound('Webhook delivery');
  return toWebhookDelivery(delivery);
}

export async function replayWebhookDeliveries(
  deps: { pool: Pool; webhookDeliveries: WebhookDeliveryQueue },
  owner: WebhookOwner,
  request: { endpointId: string; since: string },
): Promise<{ Replayed: number }> {
  // An instant JavaScript can read: the contract's date-time format checks that (HTTP and the admin CLI alike).
  const since = new Date(request.since);
  const endpoint = await ownedEndpoint(deps.pool, owner, request.endpointId);
  const replayed = await replay(deps, owner, endpoint.id, (tx) => markFailedDeliveriesForReplay(tx, owner, endpoint.id, since));
  return { Replayed: replayed.length };
}
