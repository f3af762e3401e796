// Webhook endpoints and their deliveries, as the partner API and the admin CLI read and replay them. Every partner
// query takes the owner (account and partner): a partner never reads or replays another's endpoint. The delivery
// worker writes attempts; this module only reads them.
import type { Db } from './pool.js';

export interface WebhookOwner {
  accountId: string;
  partnerId: string;
}

export interface WebhookEndpointRecord {
  id: string;
  accountId: string;
  partnerId: string;
  url: string;
  eventTypes: string[];
  createdAt: Date;
  failingSince: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
}

export interface WebhookAttemptRecord {
  attemptedAt: Date;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
}

export interface WebhookDeliveryRecord {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attemptCount: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
  failedAt: Date | null;
  attempts: WebhookAttemptRecord[];
}

/** A place in the newest-first list of deliveries: created_at exactly as stored (microseconds) and the id. */
export interface DeliveryPosition {
  createdAt: string;
  id: string;
}

/**
 * A delivery put back to pending by a replay: its job id is `<id>.r<replayCount>`. The prior values (as PostgreSQL
 * text, exact to the microsecond) undo the replay when the queue does not take the job.
 */
export interface ReplayedDelivery {
  id: string;
  replayCount: number;
  prior: { status: 'delivered' | 'failed'; nextAttemptAt: string | null; updatedAt: string };
}

/** What a replay cleared on a disabled endpoint (as PostgreSQL text), to put back when the replay is undone. */
export interface DisabledState {
  disabledAt: string;
  disabledReason: string | null;
  failingSince: string | null;
}

interface EndpointRow {
  id: string;
  account_id: string;
  partner_id: string;
  url: string;
  event_types: string[];
  created_at: Date;
  failing_since: Date | null;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

const ENDPOINT_COLUMNS = 'id, account_id, partner_id, url, event_types, created_at, failing_since, disabled_at, disabled_reason';

const toEndpoint = (r: EndpointRow): WebhookEndpointRecord => ({
  id: r.id,
  accountId: r.account_id,
  partnerId: r.partner_id,
  url: r.url,
  eventTypes: r.event_types,
  createdAt: r.created_at,
  failingSince: r.failing_since,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
});

/**
 * Locks the partner's row, so that endpoints are counted and added one registration at a time, and answers how many
 * endpoints it has; null when the account has no such partner.
 */
export async function lockPartnerEndpointCount(db: Db, owner: WebhookOwner): Promise<number | null> {
  const locked = await db.query(`SELECT 1 FROM partners WHERE account_id = $1 AND id = $2 FOR UPDATE`, [owner.accountId, owner.partnerId]);
  if (locked.rowCount !== 1) return null;
  // Counted in a statement of its own, after the lock: a statement that waited for the lock still reads with the
  // snapshot it started with, and would miss the endpoint the registration it waited for has just added.
  const { rows } = await db.query<{ endpoints: number }>(`SELECT count(*)::int AS endpoints FROM webhook_endpoints WHERE account_id = $1 AND partner_id = $2`, [
    owner.accountId,
    owner.partnerId,
  ]);
  return rows[0]!.endpoints;
}

export async function insertWebhookEndpoint(
  db: Db,
  owner: WebhookOwner,
  endpoint: { url: string; eventTypes: readonly string[]; secret: string },
): Promise<WebhookEndpointRecord> {
  const { rows } = await db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (account_id, partner_id, url, event_types, secret) VALUES ($1, $2, $3, $4, $5) RETURNING ${ENDPOINT_COLUMNS}`,
    [owner.accountId, owner.partnerId, endpoint.url, endpoint.eventTypes, endpoint.secret],
  );
  return toEndpoint(rows[0]!);
}

export async function listWebhookEndpoints(db: Db, owner: WebhookOwner): Promise<WebhookEndpointRecord[]> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE account_id = $1 AND partner_id = $2 ORDER BY created_at, id`,
    [owner.accountId, owner.partnerId],
  );
  return rows.map(toEndpoint);
}

/** The operator's view across tenants (admin CLI): every endpoint, or an account's, or a partner's. */
export async function listAllWebhookEndpoints(
  db: Db,
  filter: { accountId?: string | undefined; partnerId?: string | undefined },
): Promise<WebhookEndpointRecord[]> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints
      WHERE ($1::uuid IS NULL OR account_id = $1) AND ($2::uuid IS NULL OR partner_id = $2)
      ORDER BY account_id, partner_id, created_at, id`,
    [filter.accountId ?? null, filter.partnerId ?? null],
  );
  return rows.map(toEndpoint);
}

/** Whose endpoint this is (the admin CLI, which starts from an endpoint id); null when there is none. */
export async function findWebhookEndpointOwner(db: Db, endpointId: string): Promise<WebhookOwner | null> {
  const { rows } = await db.query<{ account_id: string; partner_id: string }>(`SELECT account_id, partner_id FROM webhook_endpoints WHERE id = $1`, [
    endpointId,
  ]);
  const row = rows[0];
  return row ? { accountId: row.account_id, partnerId: row.partner_id } : null;
}

export async function findWebhookEndpoint(
  db: Db,
  owner: WebhookOwner,
  endpointId: string,
  options: { lock?: boolean } = {},
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND partner_id = $3${options.lock ? ' FOR UPDATE' : ''}`,
    [endpointId, owner.accountId, owner.partnerId],
  );
  const row = rows[0];
  return row ? toEndpoint(row) : null;
}

/**
 * Changes the endpoint's URL and event types (null: keep them) and enables it: its disabled state and its run of failures
 * are cleared. Null when the owner has no such endpoint.
 */
export async function updateWebhookEndpoint(
  db: Db,
  owner: WebhookOwner,
  endpointId: string,
  changes: { url: string | null; eventTypes: readonly string[] | null },
): Promise<WebhookEndpointRecord | null> {
  const { rows } = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints
        SET url = COALESCE($4, url), event_types = COALESCE($5, event_types), disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
      WHERE id = $1 AND account_id = $2 AND partner_id = $3
      RETURNING ${ENDPOINT_COLUMNS}`,
    [endpointId, owner.accountId, owner.partnerId, changes.url, changes.eventTypes],
  );
  const row = rows[0];
  return row ? toEndpoint(row) : null;
}

/** Deletes the endpoint (its deliveries and attempts cascade); false when the owner has no such endpoint. */
export async function deleteWebhookEndpoint(db: Db, owner: WebhookOwner, endpointId: string): Promise<boolean> {
  const { rowCount } = await db.query(`DELETE FROM webhook_endpoints WHERE id = $1 AND account_id = $2 AND partner_id = $3`, [
    endpointId,
    owner.accountId,
    owner.partnerId,
  ]);
  return rowCount === 1;
}

// JavaScript dates keep milliseconds; the position keeps PostgreSQL's microseconds, so that deliveries made within one
// millisecond are neither skipped nor served twice across pages.
const EXACT_CREATED_AT = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at_exact`;

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryRecord['status'];
  attempt_count: number;
  next_attempt_at: Date | null;
  created_at: Date;
  created_at_exact: string;
  delivered_at: Date | null;
  failed_at: Date | null;
}

/**
 * One page of an endpoint's deliveries, newest first, each with its attempts (oldest first), and the position of the
 * last one. The endpoint must be the owner's: the caller has checked it.
 */
export async function listWebhookDeliveries(
  db: Db,
  owner: WebhookOwner,
  endpointId: string,
  query: { status?: WebhookDeliveryRecord['status'] | undefined; after: DeliveryPosition | null; limit: number },
): Promise<{ deliveries: WebhookDeliveryRecord[]; last: DeliveryPosition | null }> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, ${EXACT_CREATED_AT}, delivered_at, failed_at
       FROM webhook_deliveries
      WHERE endpoint_id = $1 AND account_id = $2
        AND ($3::text IS NULL OR status = $3)
        AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
      ORDER BY created_at DESC, id DESC
      LIMIT $6`,
    [endpointId, owner.accountId, query.status ?? null, query.after?.createdAt ?? null, query.after?.id ?? null, query.limit],
  );
  const attempts = await listAttempts(
    db,
    rows.map((r) => r.id),
  );
  const deliveries = rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    eventType: r.event_type,
    status: r.status,
    attemptCount: r.attempt_count,
    nextAttemptAt: r.next_attempt_at,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at,
    failedAt: r.failed_at,
    attempts: attempts.get(r.id) ?? [],
  }));
  const lastRow = rows.at(-1);
  return { deliveries, last: lastRow ? { createdAt: lastRow.created_at_exact, id: lastRow.id } : null };
}

async function listAttempts(db: Db, deliveryIds: string[]): Promise<Map<string, WebhookAttemptRecord[]>> {
  const byDelivery = new Map<string, WebhookAttemptRecord[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const { rows } = await db.query<{
    delivery_id: string;
    attempted_at: Date;
    status_code: number | null;
    duration_ms: number;
    error: string | null;
    response_excerpt: string | null;
  }>(
    `SELECT delivery_id, attempted_at, status_code, duration_ms, error, response_excerpt FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY id`,
    [deliveryIds],
  );
  for (const r of rows) {
    const list = byDelivery.get(r.delivery_id) ?? [];
    list.push({ attemptedAt: r.attempted_at, statusCode: r.status_code, durationMs: r.duration_ms, error: r.error, responseExcerpt: r.response_excerpt });
    byDelivery.set(r.delivery_id, list);
  }
  return byDelivery;
}

/** One delivery of the owner's endpoint, with its attempts; null when there is none. */
export async function findWebhookDelivery(db: Db, owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<WebhookDeliveryRecord | null> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT id, event_id, event_type, status, attempt_count, next_attempt_at, created_at, ${EXACT_CREATED_AT}, delivered_at, failed_at
       FROM webhook_deliveries WHERE id = $1 AND endpoint_id = $2 AND account_id = $3`,
    [deliveryId, endpointId, owner.accountId],
  );
  const row = rows[0];
  if (!row) return null;
  const attempts = await listAttempts(db, [row.id]);
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type,
    status: row.status,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at,
    failedAt: row.failed_at,
    attempts: attempts.get(row.id) ?? [],
  };
}

// A replay puts deliveries back to pending, due now, and answers each one's prior values so that a replay the queue
// did not take can be undone. The two statements differ only in which deliveries they take.
const REPLAY_SET = `status = 'pending', next_attempt_at = now(), replay_count = d.replay_count + 1, updated_at = now()`;
const REPLAY_RETURNING = `d.id, d.replay_count, prior.status AS prior_status, prior.next_attempt_at::text AS prior_next_attempt_at, prior.updated_at::text AS prior_updated_at`;

interface ReplayRow {
  id: string;
  replay_count: number;
  prior_status: ReplayedDelivery['prior']['status'];
  prior_next_attempt_at: string | null;
  prior_updated_at: string;
}

const toReplayed = (r: ReplayRow): ReplayedDelivery => ({
  id: r.id,
  replayCount: r.replay_count,
  prior: { status: r.prior_status, nextAttemptAt: r.prior_next_attempt_at, updatedAt: r.prior_updated_at },
});

/** Puts one failed or delivered delivery of the endpoint back to pending; empty when it is not (pending, or not there). */
export async function markDeliveryForReplay(db: Db, owner: WebhookOwner, endpointId: string, deliveryId: string): Promise<ReplayedDelivery[]> {
  const { rows } = await db.query<ReplayRow>(
    `UPDATE webhook_deliveries d SET ${REPLAY_SET}
       FROM webhook_deliveries prior
      WHERE prior.id = d.id AND d.id = $3 AND d.endpoint_id = $1 AND d.account_id = $2 AND d.status IN ('failed', 'delivered')
      RETURNING ${REPLAY_RETURNING}`,
    [endpointId, owner.accountId, deliveryId],
  );
  return rows.map(toReplayed);
}

/** Puts every failed delivery of the endpoint created at or after `since` back to pending. */
export async function markFailedDeliveriesForReplay(db: Db, owner: WebhookOwner, endpointId: string, since: Date): Promise<ReplayedDelivery[]> {
  const { rows } = await db.query<ReplayRow>(
    `UPDATE webhook_deliveries d SET ${REPLAY_SET}
       FROM webhook_deliveries prior
      WHERE prior.id = d.id AND d.endpoint_id = $1 AND d.account_id = $2 AND d.status = 'failed' AND d.created_at >= $3
      RETURNING ${REPLAY_RETURNING}`,
    [endpointId, owner.accountId, since],
  );
  return rows.map(toReplayed);
}

/** Undoes a replay the queue did not take: each delivery still as that replay left it gets its prior values back. */
export async function revertReplay(db: Db, accountId: string, replayed: readonly ReplayedDelivery[]): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries d
        SET status = r.status, next_attempt_at = r.next_attempt_at::timestamptz, updated_at = r.updated_at::timestamptz, replay_count = d.replay_count - 1
       FROM unnest($2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[]) AS r(id, replay_count, status, next_attempt_at, updated_at)
      WHERE d.id = r.id AND d.account_id = $1 AND d.replay_count = r.replay_count AND d.status = 'pending'`,
    [
      accountId,
      replayed.map((r) => r.id),
      replayed.map((r) => r.replayCount),
      replayed.map((r) => r.prior.status),
      replayed.map((r) => r.prior.nextAttemptAt),
      replayed.map((r) => r.prior.updatedAt),
    ],
  );
}

/**
 * Clears a disabled endpoint's disabled and failing state (a replay's decision to try it again) and answers what it
 * cleared; null when the endpoint was enabled (nothing changes).
 */
export async function enableWebhookEndpoint(db: Db, owner: WebhookOwner, endpointId: string): Promise<DisabledState | null> {
  const { rows } = await db.query<{ disabled_at: string; disabled_reason: string | null; failing_since: string | null }>(
    `UPDATE webhook_endpoints e SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL
       FROM webhook_endpoints prior
      WHERE prior.id = e.id AND e.id = $1 AND e.account_id = $2 AND e.partner_id = $3 AND e.disabled_at IS NOT NULL
      RETURNING prior.disabled_at::text AS disabled_at, prior.disabled_reason, prior.failing_since::text AS failing_since`,
    [endpointId, owner.accountId, owner.partnerId],
  );
  const row = rows[0];
  return row ? { disabledAt: row.disabled_at, disabledReason: row.disabled_reason, failingSince: row.failing_since } : null;
}

/** Puts back what enableWebhookEndpoint cleared, unless the endpoint changed since (a success, a new failure run). */
export async function restoreDisabledState(db: Db, owner: WebhookOwner, endpointId: string, state: DisabledState): Promise<void> {
  await db.query(
    `UPDATE webhook_endpoints SET disabled_at = $4::timestamptz, disabled_reason = $5, failing_since = $6::timestamptz
      WHERE id = $1 AND account_id = $2 AND partner_id = $3 AND disabled_at IS NULL AND failing_since IS NULL`,
    [endpointId, owner.accountId, owner.partnerId, state.disabledAt, state.disabledReason, state.failingSince],
  );
}
