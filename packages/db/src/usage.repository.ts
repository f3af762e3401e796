// Usage entries and their rollups. Entries and the hourly/daily rollups they feed are written by one statement,
// so a summary read after a 201 always includes the entry, and a duplicate (same dedupe key) changes nothing.
import type { Db } from './pool.js';

export interface NewUsageEntry {
  accountId: string;
  meter: string;
  /** Decimal string or number; stored as numeric so sums are exact. */
  usage: string | number;
  extraInfo: string | null;
  /** Unix seconds. */
  occurredAt: number;
  /** 'event:<EventID>' or 'key:<Idempotency-Key>'; null when the entry needs no dedupe. */
  dedupeKey: string | null;
  requestHash: string | null;
}

export interface StoredUsageEntry {
  id: number;
  accountId: string;
  meter: string;
  /** Exact decimal text as PostgreSQL returns it. */
  usage: string;
  extraInfo: string | null;
  occurredAt: number;
  requestHash: string | null;
}

export type InsertOutcome = { created: true; entry: StoredUsageEntry } | { created: false; existing: StoredUsageEntry };

interface EntryRow {
  id: number;
  account_id: string;
  meter: string;
  usage: string;
  extra_info: string | null;
  occurred_at: number;
  request_hash: string | null;
}

function toEntry(row: EntryRow): StoredUsageEntry {
  return {
    id: row.id,
    accountId: row.account_id,
    meter: row.meter,
    usage: row.usage,
    extraInfo: row.extra_info,
    occurredAt: Number(row.occurred_at),
    requestHash: row.request_hash,
  };
}

/**
 * Inserts entries (any accounts) and adds exactly the inserted ones to the rollups, in one statement.
 * Entries whose dedupe key already exists are skipped and come back as `{ created: false, existing }`.
 * Results are in input order. Rollup rows are upserted in key order so concurrent batches cannot deadlock.
 */
export async function insertUsageEntries(db: Db, entries: readonly NewUsageEntry[]): Promise<InsertOutcome[]> {
  if (entries.length === 0) return [];
  const { rows } = await db.query<EntryRow & { ord: number; created: boolean }>(
    `WITH input AS MATERIALIZED (
       SELECT nextval(pg_get_serial_sequence('usage_entries', 'id')) AS id, ord::int, account_id::uuid, meter, usage::numeric,
              extra_info, to_timestamp(occurred_at) AS occurred_at, dedupe_key, request_hash
         FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[])
           AS t(ord, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash)
     ),
     inserted AS (
       INSERT INTO usage_entries (id, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash)
       OVERRIDING SYSTEM VALUE
       SELECT id, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash FROM input ORDER BY ord
       ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
       RETURNING id, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash
     ),
     hourly AS (
       INSERT INTO usage_rollups_hourly AS r (account_id, bucket, meter, total_usage, event_count)
       SELECT account_id, date_trunc('hour', occurred_at, 'UTC'), meter, sum(usage), count(*)
         FROM inserted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT (account_id, bucket, meter)
       DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count
     ),
     daily AS (
       INSERT INTO usage_rollups_daily AS r (account_id, bucket, meter, total_usage, event_count)
       SELECT account_id, (occurred_at AT TIME ZONE 'UTC')::date, meter, sum(usage), count(*)
         FROM inserted GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
       ON CONFLICT (account_id, bucket, meter)
       DO UPDATE SET total_usage = r.total_usage + EXCLUDED.total_usage, event_count = r.event_count + EXCLUDED.event_count
     ),
     -- For each input row: the row it inserted, else the row that already holds its dedupe key (inserted earlier in
     -- this batch, or committed before this statement began).
     resolved AS (
       SELECT i.ord, (n.id IS NOT NULL) AS created,
              COALESCE(n.id, d.id, e.id) AS id, COALESCE(n.meter, d.meter, e.meter) AS meter,
              COALESCE(n.usage, d.usage, e.usage) AS usage, COALESCE(n.extra_info, d.extra_info, e.extra_info) AS extra_info,
              COALESCE(n.occurred_at, d.occurred_at, e.occurred_at) AS occurred_at,
              COALESCE(n.request_hash, d.request_hash, e.request_hash) AS request_hash, i.account_id
         FROM input i
         LEFT JOIN inserted n ON n.id = i.id
         -- inserted holds each (account, dedupe key) at most once: the first input row with a key wins, the rest conflict.
         LEFT JOIN inserted d ON n.id IS NULL AND d.account_id = i.account_id AND d.dedupe_key = i.dedupe_key
         -- A lateral lookup by the dedupe index (LIMIT keeps it from being flattened into a join): a join lets the
         -- planner sort-merge against a scan of all of usage_entries, and its high estimate makes PostgreSQL JIT-compile
         -- the statement, which alone costs more than the insert.
         LEFT JOIN LATERAL (
           SELECT * FROM usage_entries x
            WHERE n.id IS NULL AND d.id IS NULL AND x.account_id = i.account_id AND x.dedupe_key = i.dedupe_key AND x.dedupe_key IS NOT NULL
            LIMIT 1
         ) e ON true
     )
     SELECT ord, created, id, account_id, meter, usage::text AS usage, extra_info,
            extract(epoch FROM occurred_at)::bigint AS occurred_at, request_hash
       FROM resolved ORDER BY ord`,
    [
      entries.map((_, i) => i),
      entries.map((e) => e.accountId),
      entries.map((e) => e.meter),
      entries.map((e) => String(e.usage)),
      entries.map((e) => e.extraInfo),
      entries.map((e) => e.occurredAt),
      entries.map((e) => e.dedupeKey),
      entries.map((e) => e.requestHash),
    ],
  );
  const outcomes: InsertOutcome[] = [];
  for (const row of rows) {
    if (row.created) outcomes.push({ created: true, entry: toEntry(row) });
    else if (row.id !== null) outcomes.push({ created: false, existing: toEntry(row) });
    else {
      // The holder of this dedupe key committed while this statement waited on it, after our snapshot: read it now.
      const existing = await findUsageEntryByDedupeKey(db, entries[row.ord]!.accountId, entries[row.ord]!.dedupeKey!);
      if (!existing) throw new Error('usage entry vanished after a dedupe conflict');
      outcomes.push({ created: false, existing });
    }
  }
  return outcomes;
}

export async function findUsageEntryByDedupeKey(db: Db, accountId: string, dedupeKey: string): Promise<StoredUsageEntry | null> {
  const { rows } = await db.query<EntryRow>(
    `SELECT id, account_id, meter, usage::text AS usage, extra_info, extract(epoch FROM occurred_at)::bigint AS occurred_at, request_hash
       FROM usage_entries WHERE account_id = $1 AND dedupe_key = $2`,
    [accountId, dedupeKey],
  );
  return rows[0] ? toEntry(rows[0]) : null;
}
