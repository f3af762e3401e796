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
 * Fans out several events in one statement: for each, one pending delivery per endpoint of its partner that is enabled
 * and subscribed to its type (an event fans out to an endpoint once: the unique (endpoint, event) key drops a
 * redelivered event). Answers, per event in order, the ids of every delivery of the event still pending, the new ones
 * and those an earlier run inserted but may not have queued.
 */
export async function fanOutWebhookEvents(db: Db, events: readonly WebhookEventToFanOut[]): Promise<string[][]> {
  if (events.length === 0) return [];
  // One statement: the outer SELECT does not see the CTE's rows (same snapshot), so the two halves never overlap.
  const { rows } = await db.query<{ n: number; id: string }>(
    `WITH event AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(n int, account_id uuid, partner_id uuid, event_id uuid, event_type text, payload jsonb)
     ),
     inserted AS (
       INSERT INTO webhook_deliveries (endpoint_id, account_id, event_id, event_type, payload)
       SELECT e.id, e.account_id, ev.event_id, ev.event_type, ev.payload
         FROM event ev
         JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.partner_id = ev.partner_id AND e.disabled_at IS NULL AND ev.event_type = ANY (e.event_types)
       ON CONFLICT (endpoint_id, event_id) DO NOTHING
       RETURNING id, account_id, event_id
     )
     SELECT ev.n, i.id FROM inserted i JOIN event ev ON ev.account_id = i.account_id AND ev.event_id = i.event_id
     UNION
     -- Through the partners' endpoints: (endpoint_id, event_id) is indexed, event_id alone is not.
     SELECT ev.n, d.id
       FROM event ev
       JOIN webhook_endpoints e ON e.account_id = ev.account_id AND e.partner_id = ev.partner_id
       JOIN webhook_deliveries d ON d.endpoint_id = e.id AND d.event_id = ev.event_id
      WHERE d.status = 'pending'`,
    [
      JSON.stringify(
        events.map((event, n) => ({
          n,
          account_id: event.accountId,
          partner_id: event.partnerId,
          event_id: event.eventId,
          event_type: event.type,
          payload: event.payload,
        })),
      ),
    ],
  );
  const pending = events.map((): string[] => []);
  for (const row of rows) pending[row.n]!.push(row.id);
  return pending;
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

export interface WebhookDeliveryToRead {
  accountId: string;
  deliveryId: string;
  /** When the run started: its attempts since then place it in the retry schedule. */
  runStartedAt: Date;
}

/** Each delivery with its endpoint, in one statement; null for one that is gone (with its endpoint, or the id is unknown). */
export async function findWebhookDeliveryTargets(db: Db, deliveries: readonly WebhookDeliveryToRead[]): Promise<Array<WebhookDeliveryTarget | null>> {
  if (deliveries.length === 0) return [];
  const { rows } = await db.query<{
    n: number;
    id: string;
    account_id: string;
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
    `SELECT r.n, d.id, d.account_id, d.endpoint_id, d.status, d.event_id, d.payload, e.url, e.secret, e.disabled_at IS NOT NULL AS disabled, d.next_attempt_at,
            (SELECT count(*)::int FROM webhook_attempts a WHERE a.delivery_id = d.id AND a.attempted_at >= r.run_started_at) AS run_attempts
       FROM jsonb_to_recordset($1::jsonb) AS r(n int, account_id uuid, delivery_id uuid, run_started_at timestamptz)
       JOIN webhook_deliveries d ON d.account_id = r.account_id AND d.id = r.delivery_id
       JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.account_id = d.account_id`,
    [
      JSON.stringify(
        deliveries.map((delivery, n) => ({
          n,
          account_id: delivery.accountId,
          delivery_id: delivery.deliveryId,
          run_started_at: delivery.runStartedAt.toISOString(),
        })),
      ),
    ],
  );
  const targets = deliveries.map((): WebhookDeliveryTarget | null => null);
  for (const row of rows) {
    targets[row.n] = {
      deliveryId: row.id,
      accountId: row.account_id,
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
  return targets;
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
  /** Why the destination guard refused the endpoint's URL; null when it did not. A refusal disables the endpoint. */
  refusal: string | null;
  /** The URL the attempt was made to: a refusal disables the endpoint only if its URL is still that one. */
  url: string;
}

export interface WebhookAttemptOutcome {
  status: WebhookDeliveryTarget['status'];
  /** The endpoint is disabled (by this attempt or before). */
  endpointDisabled: boolean;
}

/**
 * Records attempts in one statement (one round trip, atomic): the attempt rows, the endpoints' health and the
 * deliveries' state. An endpoint's attempts in the batch are judged together: when the last of them succeeded its run
 * of failures ends; when one succeeded and a later one failed a run starts now; when all failed a run starts, or the
 * endpoint is disabled when its run started longer ago than `disableAfterMs`. An attempt the destination guard refused
 * disables the endpoint at once, with the guard's reason, unless its URL changed meanwhile (a partner's update, whose
 * row the UPDATE sees once it has waited for its lock): retrying a refused URL is pointless. Only a change of health
 * touches the endpoint's row: every delivery to the endpoint would otherwise queue on its row lock, one commit after
 * another. Each delivery becomes delivered; pending until its `nextAttemptAt`; failed when there is no next attempt or
 * its endpoint is disabled. A delivery no longer pending (another run finished it) keeps its state; the attempt is
 * still recorded. The parts are CTEs of one statement: they see the same snapshot, and the deliveries' new state comes
 * from the endpoints' updated rows. Answers per attempt, in order; null for one whose delivery is gone (its endpoint
 * was deleted during the attempt).
 */
export async function recordWebhookAttempts(
  db: Db,
  attempts: readonly WebhookAttemptToRecord[],
  disableAfterMs: number,
): Promise<Array<WebhookAttemptOutcome | null>> {
  if (attempts.length === 0) return [];
  const input = attempts.map((attempt, n) => ({
    n,
    account_id: attempt.accountId,
    delivery_id: attempt.deliveryId,
    endpoint_id: attempt.endpointId,
    duration_ms: attempt.durationMs,
    status_code: attempt.statusCode,
    error: attempt.error,
    response_excerpt: attempt.responseExcerpt,
    succeeded: attempt.succeeded,
    next_attempt_at: attempt.nextAttemptAt?.toISOString() ?? null,
    refusal: attempt.refusal,
    url: attempt.url,
  }));
  const { rows } = await db
    .query<{ n: number; status: WebhookDeliveryTarget['status']; disabled: boolean }>(
      `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS i(n int, account_id uuid, delivery_id uuid, endpoint_id uuid, duration_ms int, status_code int, error text, response_excerpt text, succeeded boolean, next_attempt_at timestamptz, refusal text, url text)
     ),
     attempt AS (
       INSERT INTO webhook_attempts (delivery_id, duration_ms, status_code, error, response_excerpt)
       SELECT delivery_id, duration_ms, status_code, error, response_excerpt FROM input ORDER BY n
     ),
     batch AS (
       SELECT account_id, endpoint_id, bool_or(succeeded) AS any_succeeded, (array_agg(succeeded ORDER BY n DESC))[1] AS last_succeeded,
              (array_agg(refusal ORDER BY n DESC) FILTER (WHERE refusal IS NOT NULL))[1] AS refusal,
              array_agg(url) FILTER (WHERE refusal IS NOT NULL) AS refused_urls
         FROM input GROUP BY account_id, endpoint_id
     ),
     health AS (
       UPDATE webhook_endpoints e
          SET failing_since = CASE WHEN b.last_succeeded THEN NULL WHEN b.any_succeeded THEN now() ELSE COALESCE(e.failing_since, now()) END,
              disabled_at = CASE WHEN e.disabled_at IS NULL AND e.url = ANY (b.refused_urls) THEN now()
                                 WHEN NOT b.any_succeeded AND e.failing_since < now() - $2 * interval '1 millisecond' THEN now()
                                 ELSE e.disabled_at END,
              disabled_reason = CASE WHEN e.disabled_at IS NULL AND e.url = ANY (b.refused_urls)
                                     THEN 'The destination was refused: ' || b.refusal || '. Nothing more is sent until the endpoint is updated (PATCH /api/v2/ota/partner/webhooks/{ID}).'
                                     WHEN NOT b.any_succeeded AND e.failing_since < now() - $2 * interval '1 millisecond'
                                     THEN 'Every delivery attempt failed since ' || to_char(e.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '.'
                                     ELSE e.disabled_reason END
         FROM batch b
        WHERE e.account_id = b.account_id AND e.id = b.endpoint_id
          AND (e.disabled_at IS NULL AND e.url = ANY (b.refused_urls)
               OR CASE WHEN b.last_succeeded THEN e.failing_since IS NOT NULL
                       WHEN b.any_succeeded THEN true
                       ELSE e.failing_since IS NULL OR (e.disabled_at IS NULL AND e.failing_since < now() - $2 * interval '1 millisecond') END)
        RETURNING e.id, e.disabled_at IS NOT NULL AS disabled
     ),
     endpoint AS (
       SELECT b.account_id, b.endpoint_id, COALESCE(h.disabled, CASE WHEN e.id IS NOT NULL THEN e.disabled_at IS NOT NULL END, true) AS disabled
         FROM batch b
         LEFT JOIN health h ON h.id = b.endpoint_id
         LEFT JOIN webhook_endpoints e ON e.account_id = b.account_id AND e.id = b.endpoint_id
     ),
     outcome AS (
       SELECT i.n, i.account_id, i.delivery_id, i.status_code, i.error, i.next_attempt_at, ep.disabled,
              CASE WHEN i.succeeded THEN 'delivered'
                   WHEN i.next_attempt_at IS NOT NULL AND NOT ep.disabled THEN 'pending'
                   ELSE 'failed' END AS status
         FROM input i JOIN endpoint ep ON ep.account_id = i.account_id AND ep.endpoint_id = i.endpoint_id
     ),
     -- A delivery attempted twice in the batch (by two runs) takes the state of its last attempt.
     latest AS (
       SELECT DISTINCT ON (delivery_id) *, count(*) OVER (PARTITION BY delivery_id) AS attempts FROM outcome ORDER BY delivery_id, n DESC
     ),
     delivery AS (
       UPDATE webhook_deliveries d
          SET status = l.status,
              attempt_count = attempt_count + l.attempts,
              next_attempt_at = CASE WHEN l.status = 'pending' THEN l.next_attempt_at END,
              last_status_code = l.status_code,
              last_error = l.error,
              updated_at = now(),
              delivered_at = CASE WHEN l.status = 'delivered' THEN now() ELSE delivered_at END,
              failed_at = CASE WHEN l.status = 'failed' THEN now() ELSE failed_at END
         FROM latest l
        WHERE d.account_id = l.account_id AND d.id = l.delivery_id AND d.status = 'pending'
     )
     SELECT n, status, disabled FROM outcome`,
      [JSON.stringify(input), disableAfterMs],
    )
    .catch(async (error: unknown) => {
      // An attempt row's delivery no longer exists: deleted with its endpoint while the attempt was made.
      if ((error as { code?: string }).code !== FOREIGN_KEY_VIOLATION) throw error;
      if (attempts.length === 1) return { rows: [] };
      // Which one is unknown: each alone, so the others are recorded.
      const outcomes: Array<WebhookAttemptOutcome | null> = [];
      for (const attempt of attempts) outcomes.push(...(await recordWebhookAttempts(db, [attempt], disableAfterMs)));
      return { rows: outcomes.flatMap((outcome, n) => (outcome ? [{ n, status: outcome.status, disabled: outcome.endpointDisabled }] : [])) };
    });
  const outcomes = attempts.map((): WebhookAttemptOutcome | null => null);
  for (const row of rows) outcomes[row.n] = { status: row.status, endpointDisabled: row.disabled };
  return outcomes;
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
