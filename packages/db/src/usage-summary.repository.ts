// Usage sums for summaries, each in one statement (one snapshot, one round trip): whole UTC days come from the
// daily rollups, whole UTC hours from the hourly rollups, sub-hour edges from usage_entries, so the cost follows
// the number of days, hours and meters in the period, not the number of entries. The rollups hold what the fold has
// added (usage-fold.repository.ts); the entries it has not added yet are read apart (usage_unfolded_entries, in the
// same snapshot) for the days and hours the rollups answer, so every entry counts once, folded or not.
import type { DayUsageRange, UsageReadPlan, UsageSumRow } from '@backbone/domain';
import type { Db, Pool } from './pool.js';

// Five index range scans, one per span of the plan. The bounds are plain parameters, so the planner estimates each
// scan from the statistics (an overestimate would cost more in JIT compilation than the query itself), and each
// entries scan is index-only on (account_id, occurred_at) INCLUDE (meter, usage).
// The empty grouping set () always yields a row, so an empty period still has its (zero) totals. Meters are ordered
// by exact total, then by name in code point order ("C" collation), whatever the database locale.
const PERIOD_SUMS = `
  WITH parts AS (
    SELECT meter, usage, 1 AS events FROM usage_entries
     WHERE account_id = $1 AND occurred_at >= to_timestamp($2) AND occurred_at < to_timestamp($3)
    UNION ALL
    SELECT meter, total_usage, event_count FROM usage_rollups_hourly
     WHERE account_id = $1 AND bucket >= to_timestamp($4) AND bucket < to_timestamp($5)
    UNION ALL
    SELECT meter, total_usage, event_count FROM usage_rollups_daily
     WHERE account_id = $1 AND bucket >= (to_timestamp($6) AT TIME ZONE 'UTC')::date AND bucket < (to_timestamp($7) AT TIME ZONE 'UTC')::date
    UNION ALL
    SELECT meter, total_usage, event_count FROM usage_rollups_hourly
     WHERE account_id = $1 AND bucket >= to_timestamp($8) AND bucket < to_timestamp($9)
    UNION ALL
    SELECT meter, usage, 1 FROM usage_entries
     WHERE account_id = $1 AND occurred_at >= to_timestamp($10) AND occurred_at < to_timestamp($11)
    UNION ALL
    -- The rollups' spans are contiguous, from the first whole hour ($4) to the last ($9).
    SELECT meter, usage, 1 FROM usage_unfolded_entries($1)
     WHERE occurred_at >= to_timestamp($4) AND occurred_at < to_timestamp($9)
  )
  SELECT NULL::int AS day, meter, COALESCE(sum(usage), 0)::text AS total_usage, COALESCE(sum(events), 0)::bigint AS event_count
    FROM parts
   GROUP BY GROUPING SETS ((meter), ())
   ORDER BY meter IS NOT NULL, sum(usage) DESC, meter COLLATE "C"`;

/** Per meter and in all over one period; rows with `day` null. */
export async function sumUsageOverPeriod(db: Db, accountId: string, plan: UsageReadPlan): Promise<UsageSumRow[]> {
  const { rawBefore, hoursBefore, days, hoursAfter, rawAfter } = plan;
  const { rows } = await db.query<SumRow>({
    name: 'usage-period-sums',
    text: PERIOD_SUMS,
    values: [accountId, ...[rawBefore, hoursBefore, days, hoursAfter, rawAfter].flatMap((s) => [s.from, s.to])],
  });
  return rows.map(toSumRow);
}

// Every local day is a handful of ranges; each range row joins only the table its source names, by an index range
// scan. Grouped per day and for the whole period from the same rows, so the series always adds up to the summary.
const DAILY_SUMS = `
  WITH ranges AS (
    SELECT * FROM unnest($2::int[], $3::text[], $4::bigint[], $5::bigint[]) AS r(day, source, lo, hi)
  ),
  unfolded AS MATERIALIZED (
    SELECT * FROM usage_unfolded_entries($1)
  ),
  parts AS (
    SELECT r.day, d.meter, d.total_usage AS usage, d.event_count AS events
      FROM ranges r
      JOIN usage_rollups_daily d
        ON r.source = 'daily' AND d.account_id = $1
       AND d.bucket >= (to_timestamp(r.lo) AT TIME ZONE 'UTC')::date AND d.bucket < (to_timestamp(r.hi) AT TIME ZONE 'UTC')::date
    UNION ALL
    SELECT r.day, h.meter, h.total_usage, h.event_count
      FROM ranges r
      JOIN usage_rollups_hourly h
        ON r.source = 'hourly' AND h.account_id = $1 AND h.bucket >= to_timestamp(r.lo) AND h.bucket < to_timestamp(r.hi)
    UNION ALL
    SELECT r.day, e.meter, e.usage, 1
      FROM ranges r
      JOIN usage_entries e
        ON r.source = 'raw' AND e.account_id = $1 AND e.occurred_at >= to_timestamp(r.lo) AND e.occurred_at < to_timestamp(r.hi)
    UNION ALL
    SELECT r.day, u.meter, u.usage, 1
      FROM ranges r
      JOIN unfolded u
        ON r.source <> 'raw' AND u.occurred_at >= to_timestamp(r.lo) AND u.occurred_at < to_timestamp(r.hi)
  ),
  -- Grouping sets over many rows sort them once per set: collapse to (day, meter) first.
  per_day AS (
    SELECT day, meter, sum(usage) AS usage, sum(events) AS events FROM parts GROUP BY day, meter
  )
  SELECT day, meter, COALESCE(sum(usage), 0)::text AS total_usage, COALESCE(sum(events), 0)::bigint AS event_count
    FROM per_day
   GROUP BY GROUPING SETS ((day, meter), (day), (meter), ())
   ORDER BY day NULLS FIRST, meter IS NOT NULL, sum(usage) DESC, meter COLLATE "C"`;

/** Per day and meter, per day, per meter and in all; days without entries have no rows. */
export async function sumUsageByDay(pool: Pool, accountId: string, ranges: readonly DayUsageRange[]): Promise<UsageSumRow[]> {
  const { rows } = await pool.query<SumRow>(DAILY_SUMS, [
    accountId,
    ranges.map((r) => r.day),
    ranges.map((r) => r.source),
    ranges.map((r) => r.from),
    ranges.map((r) => r.to),
  ]);
  return rows.map(toSumRow);
}

interface SumRow {
  day: number | null;
  meter: string | null;
  total_usage: string;
  event_count: number;
}

function toSumRow(row: SumRow): UsageSumRow {
  return { day: row.day, meter: row.meter, totalUsage: row.total_usage, eventCount: row.event_count };
}
