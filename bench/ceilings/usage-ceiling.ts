// The usage ceiling: a bare Express 5 app doing one durable INSERT per request (autocommit, so one WAL flush per
// entry with synchronous_commit on), for the batch route one multi-row INSERT per request, and for summaries one
// GROUP BY over the daily rollups. No auth lookup, no validation, no idempotency, no logging, no rollup upkeep:
// what the database work alone costs.
import express from 'express';
import { createPool } from '@backbone/db';

const accountId = process.env.ACCOUNT_ID!;
const summaryAccountId = process.env.SUMMARY_ACCOUNT_ID!;
const pool = createPool({
  connectionString: process.env.DATABASE_URL!,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  applicationName: 'bench-usage-ceiling',
});
const app = express();
app.use(express.json({ limit: '1mb' }));

app.get('/healthz', (_req, res) => {
  res.json({ status: 'ok' });
});

interface Body {
  Meter: string;
  Usage: number;
  ExtraInfo?: string;
  OccurredAt?: number;
}

app.post('/api/v2/usage/meters', async (req, res) => {
  const body = req.body as Body;
  const { rows } = await pool.query<{ id: number; occurred_at: number }>(
    `INSERT INTO usage_entries (account_id, meter, usage, extra_info, occurred_at)
     VALUES ($1, $2, $3, $4, to_timestamp($5)) RETURNING id, extract(epoch FROM occurred_at)::bigint AS occurred_at`,
    [accountId, body.Meter, body.Usage, body.ExtraInfo ?? null, body.OccurredAt ?? Math.floor(Date.now() / 1000)],
  );
  const row = rows[0]!;
  res.status(201).json({ data: { ID: row.id, Meter: body.Meter, Usage: body.Usage, ExtraInfo: body.ExtraInfo ?? null, OccurredAt: Number(row.occurred_at) } });
});

app.post('/api/v2/usage/meters/batch', async (req, res) => {
  const entries = (req.body as { Entries: Body[] }).Entries;
  const now = Math.floor(Date.now() / 1000);
  const { rows } = await pool.query<{ id: number }>(
    `INSERT INTO usage_entries (account_id, meter, usage, extra_info, occurred_at)
     SELECT $1, meter, usage, extra_info, to_timestamp(occurred_at)
       FROM unnest($2::text[], $3::numeric[], $4::text[], $5::bigint[]) AS t(meter, usage, extra_info, occurred_at)
     RETURNING id`,
    [accountId, entries.map((e) => e.Meter), entries.map((e) => e.Usage), entries.map((e) => e.ExtraInfo ?? null), entries.map((e) => e.OccurredAt ?? now)],
  );
  res.status(201).json({
    data: {
      Created: rows.length,
      Replayed: 0,
      Rejected: 0,
      Results: rows.map((r, i) => ({ Index: i, Status: 'created', Entry: { ID: r.id, ...entries[i] } })),
    },
  });
});

// Whole UTC days from the daily rollups, one GROUP BY: the least a summary over 10M entries can cost.
app.get('/api/v2/usage/meters', async (req, res) => {
  const { from, to } = req.query as { from: string; to: string };
  const { rows } = await pool.query<{ meter: string; total_usage: string; event_count: string }>(
    `SELECT meter, sum(total_usage)::text AS total_usage, sum(event_count) AS event_count
       FROM usage_rollups_daily WHERE account_id = $1 AND bucket BETWEEN $2::date AND $3::date
      GROUP BY meter ORDER BY sum(total_usage) DESC, meter`,
    [summaryAccountId, from, to],
  );
  const fromTs = Date.parse(`${from}T00:00:00Z`) / 1000;
  const toTs = Date.parse(`${to}T23:59:59Z`) / 1000;
  res.json({
    data: {
      Period: { From: from, To: to, FromTimestamp: fromTs, ToTimestamp: toTs },
      Totals: { Usage: rows.reduce((sum, r) => sum + Number(r.total_usage), 0), Events: rows.reduce((sum, r) => sum + Number(r.event_count), 0) },
      Meters: rows.map((r) => ({ Meter: r.meter, TotalUsage: Number(r.total_usage), EventCount: Number(r.event_count) })),
    },
  });
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ msg: 'usage ceiling listening' })));
server.keepAliveTimeout = 65_000;
const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
