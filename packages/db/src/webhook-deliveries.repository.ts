// The webhook worker's side of the webhook tables: fanning an event out into one delivery per matching endpoint,
// reading what one attempt needs, and recording each attempt with the delivery's state and the endpoint's health.
// (Registering, listing and replaying belong to the partner API's webhooks.repository.ts.)
import type { Db } from './pool.js';

const FOREIGN_KEY_VIOLATION = '23503';

export interface WebhookEventToFanOut {
  accountId: string;
  /** The partner whose endpoints hear of the event. */
  partnerId: string;
  eventId: string;
  /** The event's job name, e.g. 'booking.created'. */
  type: string;
  /** The body every endpoint receives: { type, timestamp, data }. */
  payload: Record<string, unknown>;
}

/**
 * Inserts one pending delivery per endpoint of the partner that is enabled and subscribed to the type (an event fans
 * out to an endpoint once: the unique (endpoint, event) key drops a redelivered event), and returns the ids of every
 * delivery of the event still pending, the new ones and those an earlier run inserted but may not have queued.
 */
export async function fanOutWebhookEvent(db: Db, event: WebhookEventToFanOut): Promise<string[]> {
  // One statement: the outer SELECT does not see the CTE's rows (same snapshot), so the two halves never overlap.
  const { rows } = await db.query<{ id: string }>(
    `WITH inserted AS (
       INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload)
       SELECT e.id, e.account_id, $3, $4, $5
         FROM webhook_endpoints e
        WHERE e.account_id = $1 AND e.partner_id = $2 AND e.disabled_at IS NULL AND $4 = ANY (e.event_types)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING id
     )
     SELECT id FROM inserted
     UNION
     -- Through the partner's endpoints: (endpoint_id, event_id) is indexed, event_id alone is not.
     SELECT d.id
       FROM webhook_endpoints e JOIN webhook_deliveries d ON d.endpoint_id = e.id AND d.event_id = $3
      WHERE e.account_id = $1 AND e.partner_id = $2 AND d.status = 'pending'`,
    [event.accountId, event.partnerId, event.eventId, event.type, JSON.stringify(event.payload)],
  );
  return rows.map((row) => row.id);
}

export interface WebhookDeliveryTarget {
  deliveryId: string;
  accountId: string;
  endpointId: string;
  status: 'pending' | 'delivered' | 'failed';
  eventId: string;
  payload: unknown;
  url: string;
  secret: string;
  endpointDisabled: boolean;
  nextAttemptAt: Date | null;
  /** Attempts made since `runStartedAt`: the position in the retry schedule of the run that started then. */
  runAttempts: number;
}

/** The delivery with its endpoint; null when either is gone (a deleted endpoint takes its deliveries with it). */
export async function findWebhookDeliveryTarget(db: Db, accountId: string, deliveryId: string, runStartedAt: Date): Promise<WebhookDeliveryTarget | null> {
  const { rows } = await db.query<{
    id: string;
    endpoint_id: string;
    status: WebhookDeliveryTarget['status'];
    event_id: string;
    payload: unknown;
    url: string;
    secret: string;
    disabled: boolean;
    next_attempt_at: Date | null;
    run_attempts: number;
  }>(
    `SELECT d.id, d.endpoint_id, d.status, d.event_id, d.payload, e.url, e.secret, e.disabled_at IS NOT NULL AS disabled, d.next_attempt_at,
            (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.attempted_at >= $3) AS run_attempts
       FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.account_id = d.account_id
      WHERE d.account_id = $1 AND d.id = $2`,
    [accountId, deliveryId, runStartedAt],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    deliveryId: row.id,
    accountId,
    endpointId: row.endpoint_id,
    status: row.status,
    eventId: row.event_id,
    payload: row.payload,
    url: row.url,
    secret: row.secret,
    endpointDisabled: row.disabled,
    nextAttemptAt: row.next_attempt_at,
    runAttempts: row.run_attempts,
  };
}

export interface WebhookAttemptToRecord {
  accountId: string;
  deliveryId: string;
  endpointId: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  succeeded: boolean;
  /** When the attempt failed: the next attempt's time, or null when this was the run's last. */
  nextAttemptAt: Date | null;
  /** An endpoint whose unbroken run of failures started longer ago than this is disabled by this failure. */
  disableAfterMs: number;
}

export interface WebhookAttemptOutcome {
  status: WebhookDeliveryTarget['status'];
  /** The endpoint is disabled (by this attempt or before). */
  endpointDisabled: boolean;
}

/**
 * Records one attempt in one statement (one round trip, atomic): the attempt row, the endpoint's health (a success
 * ends a run of failures; a failure starts one, or disables the endpoint when the run is older than `disableAfterMs`)
 * and the delivery's state (delivered; pending until `nextAttemptAt`; failed when there is no next attempt or the
 * endpoint is disabled). A delivery no longer pending (another run finished it) keeps its state; the attempt is still
 * recorded. The parts are CTEs of one statement: they see the same snapshot, and the delivery's new state comes from
 * the endpoint's updated row. Null when the delivery is gone (its endpoint was deleted during the attempt).
 */
export async function recordWebhookAttempt(db: Db, attempt: WebhookAttemptToRecord): Promise<WebhookAttemptOutcome | null> {
  const { rows } = await db
    .query<{ status: WebhookDeliveryTarget['status']; disabled: boolean }>(
    `WITH attempt AS (
       INSERT INTO webhook_attempts (delivery_id, duration_ms, status_code, error, response_excerpt) VALUES ($2, $4, $5, $6, $7)
     ),
     -- Only a change of health touches the endpoint's row: every delivery to the endpoint would otherwise queue on its
     -- row lock, one commit after another.
     health AS (
       UPDATE webhook_endpoints
          SET failing_since = CASE WHEN $8 THEN NULL ELSE COALESCE(failing_since, now()) END,
              disabled_at = CASE WHEN NOT $8 AND failing_since < now() - $10 * interval '1 millisecond' THEN now() ELSE disabled_at END,
              disabled_reason = CASE WHEN NOT $8 AND failing_since < now() - $10 * interval '1 millisecond'
                                     THEN 'Every delivery attempt failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '.'
                                     ELSE disabled_reason END
        WHERE account_id = $1 AND id = $3
          AND CASE WHEN $8 THEN failing_since IS NOT NULL
                   ELSE failing_since IS NULL OR (disabled_at IS NULL AND failing_since < now() - $10 * interval '1 millisecond') END
        RETURNING disabled_at IS NOT NULL AS disabled
     ),
     endpoint AS (
       SELECT COALESCE((SELECT disabled FROM health), (SELECT disabled_at IS NOT NULL FROM webhook_endpoints WHERE account_id = $1 AND id = $3)) AS disabled
     ),
     outcome AS (
       SELECT CASE WHEN $8 THEN 'delivered'
                   WHEN $9::timestamptz IS NOT NULL AND NOT COALESCE((SELECT disabled FROM endpoint), true) THEN 'pending'
                   ELSE 'failed' END AS status,
              COALESCE((SELECT disabled FROM endpoint), true) AS disabled
     ),
     delivery AS (
       UPDATE webhook_deliveries d
          SET status = o.status,
              attempt_count = attempt_count + 1,
              next_attempt_at = CASE WHEN o.status = 'pending' THEN $9::timestamptz END,
              last_status_code = $5,
              last_error = $6,
              updated_at = now(),
              delivered_at = CASE WHEN o.status = 'delivered' THEN now() ELSE delivered_at END,
              failed_at = CASE WHEN o.status = 'failed' THEN now() ELSE failed_at END
         FROM outcome o
        WHERE d.account_id = $1 AND d.id = $2 AND d.status = 'pending'
     )
     SELECT status, disabled FROM outcome`,
    [
      attempt.accountId,
      attempt.deliveryId,
      attempt.endpointId,
      attempt.durationMs,
      attempt.statusCode,
      attempt.error,
      attempt.responseExcerpt,
      attempt.succeeded,
      attempt.nextAttemptAt,
      attempt.disableAfterMs,
    ],
    )
    .catch((error: unknown) => {
      // The attempt row's delivery no longer exists: deleted with its endpoint while the attempt was made.
      if ((error as { code?: string }).code === FOREIGN_KEY_VIOLATION) return { rows: [] };
      throw error;
    });
  const row = rows[0];
  return row ? { status: row.status, endpointDisabled: row.disabled } : null;
}

/** Ends a pending delivery without an attempt (its endpoint was disabled): failed, kept, and replayable. */
export async function failWebhookDelivery(db: Db, accountId: string, deliveryId: string, reason: string): Promise<void> {
  await db.query(
    `UPDATE webhook_deliveries SET status = 'failed', failed_at = now(), next_attempt_at = NULL, last_error = $3, updated_at = now()
      WHERE account_id = $1 AND id = $2 AND status = 'pending'`,
    [accountId, deliveryId, reason],
  );
}

export interface NewWebhookEndpointRow {
  partnerId: string;
  url: string;
  eventTypes: readonly string[];
  secret: string;
}

/**
 * Inserts an endpoint as it is, without the checks registration makes (URL scheme, destination, limits): for tests
 * and benchmarks of the worker, which need endpoints the API would refuse (a loopback receiver).
 */
export async function insertWebhookEndpointRow(db: Db, accountId: string, endpoint: NewWebhookEndpointRow): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO webhook_endpoints (account_id, partner_id, url, event_types, secret) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [accountId, endpoint.partnerId, endpoint.url, endpoint.eventTypes, endpoint.secret],
  );
  return rows[0]!.id;
}
