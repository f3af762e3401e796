// What the metrics read at scrape time: counts across every account, the one kind of query here that takes no account
// id (they describe the service, not a tenant, and are exposed only as totals without any tenant label).
import type { Db } from './pool.js';

export interface OutboxBacklogReading {
  /** Unrelayed events per event type. */
  byType: Record<string, number>;
  /** Age of the oldest unrelayed event; 0 when there is none. */
  oldestAgeSeconds: number;
}

/** Outbox rows not yet relayed, found through the partial index of unsent rows: few while the relay keeps up. */
export async function readOutboxBacklog(db: Db): Promise<OutboxBacklogReading> {
  const { rows } = await db.query<{ type: string; unsent: number; oldest_age_seconds: number }>({
    name: 'monitoring-outbox-backlog',
    text: `SELECT type, count(*)::int AS unsent, extract(epoch FROM now() - min(created_at))::float8 AS oldest_age_seconds
             FROM outbox_events WHERE sent_at IS NULL GROUP BY type`,
  });
  return {
    byType: Object.fromEntries(rows.map((row) => [row.type, row.unsent])),
    oldestAgeSeconds: Math.max(0, ...rows.map((row) => row.oldest_age_seconds)),
  };
}

export async function countDisabledWebhookEndpoints(db: Db): Promise<number> {
  const { rows } = await db.query<{ disabled: number }>({
    name: 'monitoring-disabled-webhook-endpoints',
    text: `SELECT count(*)::int AS disabled FROM webhook_endpoints WHERE disabled_at IS NOT NULL`,
  });
  return rows[0]!.disabled;
}
