// Usage sums for summaries, in one statement (one snapshot, one round trip): whole UTC days come from the daily
// rollups, whole UTC hours from the hourly rollups, sub-hour edges from usage_entries, so the cost follows the
// number of days and meters in the period, not the number of entries.
import type { SlicedUsageRange, UsageSumRow } from '@backbone/domain';
import type { Db } from './pool.js';

// Each range row joins only the table its source names; every join is an index range scan on (account_id, time).
const RANGE_PARTS = `
  ranges AS (
    SELECT * FROM unnest($2::int[], $3::text[], $4::bigint[], $5::bigint[]) AS r(slice, source, lo, hi)
  ),
  parts AS (
    SELECT r.slice, d.meter, d.total_usage AS usage, d.event_count AS events
      FROM ranges r
      JOIN usage_rollups_daily d
        ON r.source = 'daily' AND d.account_id = $1
       AND d.bucket >= (to_timestamp(r.lo) AT TIME ZONE 'UTC')::date AND d.bucket < (to_timestamp(r.hi) AT TIME ZONE 'UTC')::date
    UNION ALL
    SELECT r.slice, h.meter, h.total_usage, h.event_count
      FROM ranges r
      JOIN usage_rollups_hourly h
        ON r.source = 'hourly' AND h.account_id = $1 AND h.bucket >= to_timestamp(r.lo) AND h.bucket < to_timestamp(r.hi)
    UNION ALL
    SELECT r.slice, e.meter, e.usage, 1
      FROM ranges r
      JOIN usage_entries e
        ON r.source = 'raw' AND e.account_id = $1 AND e.occurred_at >= to_timestamp(r.lo) AND e.occurred_at < to_timestamp(r.hi)
  )`;

// The empty grouping set () always yields a row, so an empty period still has its (zero) totals.
// Meters are ordered by exact total, then by name in code point order ("C" collation), whatever the database locale.
const PERIOD_SUMS = `
  WITH ${RANGE_PARTS}
  SELECT NULL::int AS slice, meter, COALESCE(sum(usage), 0)::text AS total_usage, COALESCE(sum(events), 0)::bigint AS event_count
    FROM parts
   GROUP BY GROUPING SETS ((meter), ())
   ORDER BY meter IS NOT NULL, sum(usage) DESC, meter COLLATE "C"`;

// Per slice (local day) and for the whole period, from the same rows: the series always adds up to the summary.
const SLICED_SUMS = `
  WITH ${RANGE_PARTS}
  SELECT slice, meter, COALESCE(sum(usage), 0)::text AS total_usage, COALESCE(sum(events), 0)::bigint AS event_count
    FROM parts
   GROUP BY GROUPING SETS ((slice, meter), (slice), (meter), ())
   ORDER BY slice NULLS FIRST, meter IS NOT NULL, sum(usage) DESC, meter COLLATE "C"`;

/**
 * Sums usage per meter over `ranges` for one account. Without `perSlice` the ranges' slices are ignored and only
 * whole-period rows come back; with it, also one total row and per-meter rows per slice. Slices without entries
 * have no rows.
 */
export async function sumUsage(db: Db, accountId: string, ranges: readonly SlicedUsageRange[], options: { perSlice: boolean }): Promise<UsageSumRow[]> {
  const { rows } = await db.query<{ slice: number | null; meter: string | null; total_usage: string; event_count: number }>(options.perSlice ? SLICED_SUMS : PERIOD_SUMS, [
    accountId,
    ranges.map((r) => r.slice),
    ranges.map((r) => r.source),
    ranges.map((r) => r.from),
    ranges.map((r) => r.to),
  ]);
  return rows.map((row) => ({ slice: row.slice, meter: row.meter, totalUsage: row.total_usage, eventCount: row.event_count }));
}
