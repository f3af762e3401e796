// Usage entries. Each insert is one statement that stores the entries only; the hourly and daily rollups are added to
// behind it by the fold (usage-fold.repository.ts), and a summary adds the entries not folded yet, so a summary read
// after a 201 always includes the entry, and a duplicate (same dedupe key) changes nothing.
import type { Db } from './pool.js';

export interface NewUsageEntry {
  accountId: string;
  meter: string;
  /** Decimal string or number; stored as numeric so sums are exact. */
  usage: string | number;
  extraInfo: string | null;
  /** Unix seconds. */
  occurredAt: number;
  /** 'event:<EventID>' or 'idem:<caller>:<Idempotency-Key>'; null when the entry needs no dedupe. */
  dedupeKey: string | null;
  requestHash: string | null;
}

export interface StoredUsageEntry {
  id: number;
  accountId: string;
  meter: string;
  /** Exact decimal text: as PostgreSQL returns it, or, for an entry just created, as written (the same number). */
  usage: string;
  extraInfo: string | null;
  occurredAt: number;
  requestHash: string | null;
}

/**
 * A skipped entry carries the row that holds its dedupe key. `concurrent` says that row was not yet committed when
 * this statement began: written by this same statement (an earlier entry with the key) or by a transaction it had to
 * wait for. For an Idempotency-Key that means the first request was still running.
 */
export type InsertOutcome = { created: true; entry: StoredUsageEntry } | { created: false; existing: StoredUsageEntry; concurrent: boolean };

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

// Lone UTF-16 surrogates (valid in a JSON string, not in Unicode) become U+FFFD, as Buffer's UTF-8 encoding would
// make them; PostgreSQL's JSON parser would refuse them instead.
const LONE_SURROGATE = /\p{Surrogate}/u;
const wellFormed = (text: string): string => text.replace(/\p{Surrogate}/gu, '\uFFFD');
function wellFormedEntry(e: NewUsageEntry): NewUsageEntry {
  if (!LONE_SURROGATE.test(e.meter) && (e.extraInfo === null || !LONE_SURROGATE.test(e.extraInfo))) return e;
  return { ...e, meter: wellFormed(e.meter), extraInfo: e.extraInfo === null ? null : wellFormed(e.extraInfo) };
}

/**
 * The entries as the one JSON document each insert reads with json_to_recordset, and the account most of them share
 * (the statement's second parameter). Not array parameters: node-postgres builds those by string concatenation, which
 * for a 1,000-entry batch allocated more memory than all the rest of the request. Each entry carries only what is its
 * own: its account only when it differs from the shared one, no null fields, its input position (o) only where the
 * statement reads it. Writing the account id and three nulls into every entry doubled the document, and sending
 * 120 kB over the socket, then parsing it, cost more than building it.
 */
function entriesDocument(input: readonly NewUsageEntry[], withPosition: boolean): [document: string, sharedAccountId: string] {
  const shared = input[0]!.accountId;
  const document = JSON.stringify(
    input.map((e, o) => ({
      o: withPosition ? o : undefined,
      a: e.accountId === shared ? undefined : e.accountId,
      m: e.meter,
      u: String(e.usage),
      x: e.extraInfo ?? undefined,
      t: e.occurredAt,
      d: e.dedupeKey ?? undefined,
      h: e.requestHash ?? undefined,
    })),
  );
  return [document, shared];
}

// The writing transaction's id, taken before the statement draws any entry id (the CTE is read by the join that feeds
// the insert, so it is evaluated before the first row's identity default): the fold relies on every entry id of a
// transaction being drawn after the transaction had its id (migration 1763850000000).
const INGEST_XID = `tx AS MATERIALIZED (SELECT pg_current_xact_id()::text::bigint AS xid)`;

/**
 * Inserts entries (any accounts) in one statement. Entries whose dedupe key already exists are skipped and come back
 * as `{ created: false, existing, concurrent }`. Results are in input order.
 */
export async function insertUsageEntries(db: Db, entries: readonly NewUsageEntry[]): Promise<InsertOutcome[]> {
  if (entries.length === 0) return [];
  const input = entries.map(wellFormedEntry);
  if (input.every((e) => e.dedupeKey === null)) return insertEntriesWithoutDedupe(db, input);
  const [document, sharedAccountId] = entriesDocument(input, true);
  const { rows } = await db.query<ResolvedRow>({
    name: 'usage-insert-entries',
    text: `WITH ${INGEST_XID},
     input AS MATERIALIZED (
       SELECT nextval(pg_get_serial_sequence('usage_entries', 'id')) AS id, t.o AS ord, COALESCE(t.a, $2::uuid) AS account_id, t.m AS meter,
              t.u::numeric AS usage, t.x AS extra_info, to_timestamp(t.t) AS occurred_at, t.d AS dedupe_key, t.h AS request_hash,
              tx.xid AS ingest_xid
         FROM tx, json_to_recordset($1::json) AS t(o int, a uuid, m text, u text, x text, t bigint, d text, h text)
     ),
     inserted AS (
       INSERT INTO usage_entries (id, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash, ingest_xid)
       OVERRIDING SYSTEM VALUE
       SELECT id, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash, ingest_xid FROM input ORDER BY ord
       ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
       RETURNING id, account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash
     )
     -- For each input row: the id it inserted (the caller knows the rest), else the row that already holds its dedupe
     -- key (inserted earlier in this batch, or committed before this statement began).
     SELECT i.ord, (n.id IS NOT NULL) AS created, (d.id IS NOT NULL) AS in_batch, COALESCE(n.id, d.id, e.id) AS id,
            COALESCE(n.usage, d.usage, e.usage)::text AS usage, COALESCE(d.meter, e.meter) AS meter,
            COALESCE(d.extra_info, e.extra_info) AS extra_info,
            extract(epoch FROM COALESCE(d.occurred_at, e.occurred_at))::bigint AS occurred_at,
            COALESCE(d.request_hash, e.request_hash) AS request_hash
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
      ORDER BY i.ord`,
    values: [document, sharedAccountId],
  });
  const outcomes: InsertOutcome[] = [];
  for (const row of rows) {
    const entry = input[row.ord]!;
    if (row.created) {
      outcomes.push({
        created: true,
        entry: {
          id: row.id!,
          accountId: entry.accountId,
          meter: entry.meter,
          usage: row.usage!,
          extraInfo: entry.extraInfo,
          occurredAt: entry.occurredAt,
          requestHash: entry.requestHash,
        },
      });
    } else if (row.id !== null) {
      outcomes.push({
        created: false,
        existing: {
          id: row.id,
          accountId: entry.accountId,
          meter: row.meter!,
          usage: row.usage!,
          extraInfo: row.extra_info,
          occurredAt: Number(row.occurred_at),
          requestHash: row.request_hash,
        },
        concurrent: row.in_batch,
      });
    } else {
      // The holder of this dedupe key committed while this statement waited on it, after our snapshot: read it now.
      const existing = await findUsageEntryByDedupeKey(db, entry.accountId, entry.dedupeKey!);
      if (!existing) throw new Error('usage entry vanished after a dedupe conflict');
      outcomes.push({ created: false, existing, concurrent: true });
    }
  }
  return outcomes;
}

/**
 * The common case (no dedupe keys, so nothing can conflict): a plain INSERT ... SELECT in input order. Identity values
 * are drawn row by row in that order, so the returned ids sorted ascending line up with the input. The input order is
 * the function scan's own (json_to_recordset emits the array in order and the insert reads it directly): an ORDER BY
 * t.o there cost 3-5 ms of PostgreSQL CPU per 1,000 entries, a third of what the insert itself costs. Only the ids
 * come back (sorted here, where they almost always arrive sorted): each usage is answered as it was written, the
 * decimal text of the same number the numeric column holds.
 */
async function insertEntriesWithoutDedupe(db: Db, input: readonly NewUsageEntry[]): Promise<InsertOutcome[]> {
  const [document, sharedAccountId] = entriesDocument(input, false);
  const { rows } = await db.query<{ id: number }>({
    name: 'usage-insert-entries-plain',
    text: `WITH ${INGEST_XID}
     INSERT INTO usage_entries (account_id, meter, usage, extra_info, occurred_at, request_hash, ingest_xid)
     SELECT COALESCE(t.a, $2::uuid), t.m, t.u::numeric, t.x, to_timestamp(t.t), t.h, tx.xid
       FROM tx, json_to_recordset($1::json) AS t(a uuid, m text, u text, x text, t bigint, h text)
     RETURNING id`,
    values: [document, sharedAccountId],
  });
  if (rows.length !== input.length) throw new Error(`inserted ${rows.length} usage entries for ${input.length}`);
  const ids = rows.map((row) => row.id);
  if (ids.some((id, i) => i > 0 && id < ids[i - 1]!)) ids.sort((a, b) => a - b);
  return input.map((entry, i) => ({
    created: true,
    entry: {
      id: ids[i]!,
      accountId: entry.accountId,
      meter: entry.meter,
      usage: String(entry.usage),
      extraInfo: entry.extraInfo,
      occurredAt: entry.occurredAt,
      requestHash: entry.requestHash,
    },
  }));
}

/**
 * The worker's insert: the same entries as insertUsageEntries, one statement, but it answers only whether
 * each entry was stored (false: its dedupe key already held an entry, or an earlier entry of the batch took it).
 * Returning no rows to resolve is what makes it cheaper: 15-20% less PostgreSQL time per batch of 50 entries. Its
 * answer is one row, and names the stored keys only when some entry was not stored (a redelivered event): sending
 * back and parsing every stored key of a 100-entry batch cost the worker's process about 2 µs an entry (issue 27).
 */
export async function insertEventUsageEntries(db: Db, entries: readonly NewUsageEntry[]): Promise<boolean[]> {
  if (entries.length === 0) return [];
  const input = entries.map(wellFormedEntry);
  const [document, sharedAccountId] = entriesDocument(input, true);
  const { rows } = await db.query<{ all_stored: boolean; accounts: string[] | null; keys: Array<string | null> | null }>({
    name: 'usage-record-entries',
    text: `WITH ${INGEST_XID},
     stored AS (
       INSERT INTO usage_entries (account_id, meter, usage, extra_info, occurred_at, dedupe_key, request_hash, ingest_xid)
       SELECT COALESCE(t.a, $2::uuid), t.m, t.u::numeric, t.x, to_timestamp(t.t), t.d, t.h, tx.xid
         FROM tx, json_to_recordset($1::json) AS t(o int, a uuid, m text, u text, x text, t bigint, d text, h text)
        ORDER BY t.o
       ON CONFLICT (account_id, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
       RETURNING account_id, dedupe_key
     )
     SELECT count(*) = $3 AS all_stored,
            CASE WHEN count(*) < $3 THEN array_agg(account_id::text) END AS accounts,
            CASE WHEN count(*) < $3 THEN array_agg(dedupe_key) END AS keys
       FROM stored`,
    values: [document, sharedAccountId, input.length],
  });
  const { all_stored: allStored, accounts, keys } = rows[0]!;
  if (allStored) return input.map(() => true);
  // The first input entry with a key is the one that could have inserted it (rows go in input order). Account ids
  // are compared as PostgreSQL's uuid reads them: case, hyphens and braces aside. No keys (array_agg of no rows is
  // null): nothing was stored.
  const keyOf = (accountId: string, dedupeKey: string) => `${accountId.toLowerCase().replace(/[^0-9a-f]/g, '')} ${dedupeKey}`;
  const storedKeys = new Set((keys ?? []).flatMap((key, i) => (key === null ? [] : [keyOf(accounts![i]!, key)])));
  return input.map((e) => e.dedupeKey === null || storedKeys.delete(keyOf(e.accountId, e.dedupeKey)));
}

interface ResolvedRow {
  ord: number;
  created: boolean;
  in_batch: boolean;
  id: number | null;
  usage: string | null;
  meter: string | null;
  extra_info: string | null;
  occurred_at: number | null;
  request_hash: string | null;
}

export async function findUsageEntryByDedupeKey(db: Db, accountId: string, dedupeKey: string): Promise<StoredUsageEntry | null> {
  const { rows } = await db.query<EntryRow>(
    `SELECT id, account_id, meter, usage::text AS usage, extra_info, extract(epoch FROM occurred_at)::bigint AS occurred_at, request_hash
       FROM usage_entries WHERE account_id = $1 AND dedupe_key = $2`,
    [accountId, dedupeKey],
  );
  return rows[0] ? toEntry(rows[0]) : null;
}
