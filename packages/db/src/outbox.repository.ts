// The transactional outbox: an event is inserted in the same transaction as the change it announces, so it exists
// exactly when that change committed. The relay later claims unsent rows, hands them to the queue and only then
// stamps them sent; a crash in between sends them again (at least once, same EventID).
import type { Db, DbClient } from './pool.js';

export interface NewOutboxEvent {
  accountId: string;
  eventId: string;
  /** The job name in the catalog, e.g. 'booking.created'. */
  type: string;
  payload: Record<string, unknown>;
}

export interface OutboxEvent extends NewOutboxEvent {
  id: number;
  /** Unix seconds. */
  createdAt: number;
}

/** Call inside the transaction that makes the change: the event commits or rolls back with it. */
export async function insertOutboxEvent(db: Db, event: NewOutboxEvent): Promise<void> {
  await db.query(`INSERT INTO outbox_events (account_id, event_id, type, payload) VALUES ($1, $2, $3, $4)`, [
    event.accountId,
    event.eventId,
    event.type,
    JSON.stringify(event.payload),
  ]);
}

/**
 * Locks up to `limit` unsent events of the given types, oldest first, for the rest of the caller's transaction.
 * SKIP LOCKED lets several relays work side by side, each taking rows the others do not hold. This is the one
 * query across accounts: the relay serves every tenant and keeps each event's account id with it.
 */
export async function claimUnsentOutboxEvents(client: DbClient, types: readonly string[], limit: number): Promise<OutboxEvent[]> {
  const { rows } = await client.query<{ id: number; account_id: string; event_id: string; type: string; payload: Record<string, unknown>; created_at: number }>(
    `SELECT id, account_id, event_id, type, payload, extract(epoch FROM created_at)::bigint AS created_at
       FROM outbox_events
      WHERE sent_at IS NULL AND type = ANY($1::text[])
      ORDER BY id
      LIMIT $2
        FOR UPDATE SKIP LOCKED`,
    [types, limit],
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    eventId: row.event_id,
    type: row.type,
    payload: row.payload,
    createdAt: Number(row.created_at),
  }));
}

/** Whether any event of the given types waits to be sent: the relay's look while idle, without a transaction. */
export async function hasUnsentOutboxEvents(db: Db, types: readonly string[]): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM outbox_events WHERE sent_at IS NULL AND type = ANY($1::text[])) AS any`, [
    types,
  ]);
  return rows[0]!.any;
}

export async function markOutboxEventsSent(client: DbClient, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await client.query(`UPDATE outbox_events SET sent_at = now() WHERE id = ANY($1::bigint[])`, [ids]);
}
