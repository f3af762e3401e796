// The CSV export of the console's bookings, written by PostgreSQL: each batch comes back as one text of finished lines,
// so the API neither parses, maps nor formats a row (most of its time: 46,000 rows/s). The format is the contract's:
// RFC 4180 quoting, CRLF line ends, BOOKING_CSV_COLUMNS, and a ' before a cell a spreadsheet would run as a formula
// (=, +, -, @, tab, CR). It filters as the list does (operator-booking-query.ts).
import { BOOKING_CSV_COLUMNS } from '@backbone/contracts';
import { SHOWN_STATUS } from './booking-row.js';
import { isoInstantSql } from './iso-instant.js';
import { BELOW, FILTERED, filterValues, JOINED, PAGE, ROW_FILTERS, SPAN, WHERE, WITHIN_ACCOUNT, type BookingFilters } from './operator-booking-query.js';
import type { Db } from './pool.js';

/** An export's window: every id below `below` and at least `lowest`. */
const WINDOW = FILTERED.and('lowest');
const { $ } = FILTERED;

/**
 * The digits of the booking's currency's minor unit (ISO 4217): none for the yen and its like, three for the dinars,
 * two for the rest. The console's Intl formatting knows the same; this keeps the CSV written by PostgreSQL alone.
 */
const MINOR_DIGITS = `(CASE WHEN b.currency IN ('BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF') THEN 0
                              WHEN b.currency IN ('BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND') THEN 3 ELSE 2 END)`;

/** Each column's value as text (null: an empty cell); `free` marks those that may hold anything. */
const CSV_VALUES: Record<(typeof BOOKING_CSV_COLUMNS)[number], { sql: string; free?: true; phone?: true }> = {
  Reference: { sql: 'b.reference' },
  Status: { sql: SHOWN_STATUS },
  Channel: { sql: 'b.channel' },
  Partner: { sql: 'p.name', free: true },
  Activity: { sql: 'a.name', free: true },
  Date: { sql: `to_char(t.local_date, 'YYYY-MM-DD')` },
  Time: { sql: `to_char(t.local_time, 'HH24:MI')` },
  Participants: { sql: 'b.participants::text' },
  FirstName: { sql: `b.customer->>'FirstName'`, free: true },
  LastName: { sql: `b.customer->>'LastName'`, free: true },
  Email: { sql: `b.customer->>'Email'`, free: true },
  Phone: { sql: `b.customer->>'Phone'`, free: true, phone: true },
  PaymentReference: { sql: 'b.payment_reference', free: true },
  CreatedAt: { sql: isoInstantSql('b.created_at') },
  UnitPriceMinor: { sql: 'b.unit_price_minor::text' },
  Currency: { sql: 'b.currency' },
  TotalMinor: { sql: 'b.total_minor::text' },
  Answers: { sql: 'answered.cell', free: true },
  CancellationReason: { sql: 'b.cancellation_reason', free: true },
  Total: { sql: `round(b.total_minor::numeric / (10::numeric ^ ${MINOR_DIGITS}), ${MINOR_DIGITS})::text` },
  Note: { sql: 'b.note', free: true },
  BookedAt: { sql: `to_char(b.created_at AT TIME ZONE a.time_zone, 'YYYY-MM-DD HH24:MI')` },
  CheckedInAt: { sql: `to_char(b.checked_in_at AT TIME ZONE a.time_zone, 'YYYY-MM-DD HH24:MI')` },
};
const CSV_COLUMNS = BOOKING_CSV_COLUMNS.map((column, i) => ({ ...CSV_VALUES[column], name: `c${i}` }));

/**
 * The joins of an exported booking b: its timeslot, activity and partner, and every answer in one cell, "Question:
 * value" (with the participant's number where it asks per participant; a multiple choice's values joined with ", ";
 * an uploaded file by its name, not its id),
 * aggregated in one lateral join rather than a subquery in the select list.
 */
const CSV_JOINED = `${JOINED}
       LEFT JOIN LATERAL (
         SELECT string_agg(ans->>'Question' || coalesce(' #' || (ans->>'Participant'), '') || ': ' ||
                  CASE WHEN ans ? 'File' THEN ans->'File'->>'Name'
                       ELSE CASE jsonb_typeof(ans->'Value') WHEN 'array' THEN array_to_string(ARRAY(SELECT jsonb_array_elements_text(ans->'Value')), ', ')
                                                 ELSE ans->>'Value' END END, '; ') AS cell
           FROM jsonb_array_elements(b.answers) AS ans
       ) AS answered ON true`;

/**
 * The cell of text `v` (not null): quoted when it holds a quote, comma or line break, with ' before a formula. One
 * regular expression tells the common cell, which needs neither, from the rest (four strpos per cell cost twice as
 * much over 100,000 rows).
 */
function csvCell(v: string, phone = false): string {
  // A phone number in the Phone column (+49 170 ..., digits, spaces, ( ) . -) runs nothing: written as it is, no '.
  const formula = `CASE WHEN ${v} ~ '^[-=+@\\t\\r]'${phone ? ` AND ${v} !~ '${PHONE}'` : ''} THEN '''' ELSE '' END`;
  return `CASE WHEN ${v} ~ '^[-=+@\\t\\r]|[",\\r\\n]'
            THEN CASE WHEN ${v} ~ '[",\\r\\n]' THEN '"' || ${formula} || replace(${v}, '"', '""') || '"' ELSE ${formula} || ${v} END
            ELSE ${v} END`;
}

/** A phone number as the contracts accept one: nothing a spreadsheet could run. */
const PHONE = '^\\+?[0-9 ().-]{4,39}$';

interface CsvBatch {
  csv: string | null;
  low: string | null;
  n: number;
}

/**
 * One batch's CSV lines, newest first, with its lowest id and its size, from `rows`: a query of bookings b, timeslots
 * t, activities a and partners p whose select list is `{columns}`. OFFSET 0 keeps each value computed once, however
 * often its cell names it.
 */
function csvBatch(rows: string): string {
  const columns = CSV_COLUMNS.map((c) => `coalesce(${c.sql}, '') AS ${c.name}`).join(', ');
  const line = CSV_COLUMNS.map((c) => (c.free ? csvCell(`r.${c.name}`, c.phone) : `r.${c.name}`)).join(` || ',' || `);
  return `SELECT string_agg(${line} || E'\\r\\n', '' ORDER BY r.id DESC) AS csv, min(r.id)::text AS low, count(*)::int AS n
            FROM (${rows.replace('{columns}', `b.id, ${columns}`)} OFFSET 0) AS r`;
}

/**
 * Rows of one batch of the export. Each batch arrives as one string, and the process holds up to three at once (the
 * one being written and those asked ahead): 5,000 rows made strings of megabytes (twice that in memory once an accent
 * makes the string two bytes a character), and the operator API peaked at 197 MiB of its 200 over the bench's
 * million-booking exports. 2,000 rows make a few hundred kilobytes.
 */
const CSV_BATCH_ROWS = 2000;

/**
 * The matching bookings as CSV lines, newest first, a batch at a time.
 * With a date range the export walks down the ids of the range's bookings in windows of `batchSize * 2` ids
 * (bookings_account_id_idx), reading each of the account's bookings in that span once: paging it like the list would
 * merge a page of every date for each batch, which costs more than the batch itself. Without one it pages down the
 * account's bookings, free text included (an export reads them all anyway), as the list's walk does.
 */
export async function* streamOperatorBookingsCsv(db: Db, accountId: string, filters: BookingFilters, batchSize = CSV_BATCH_ROWS): AsyncGenerator<string> {
  // Each page is asked for as soon as the one before it has arrived, before that one is written: PostgreSQL writes
  // the next page while the API sends this one.
  if (filters.From === undefined && filters.To === undefined) {
    const page = (below: string | null) =>
      prefetch(
        db.query<CsvBatch>({
          name: 'operator-bookings-csv-page',
          // The page's bookings first, then their joins: with the joins inside, a generic plan hashes them and sorts
          // every booking of the account for each page.
          text: csvBatch(`SELECT {columns} FROM (
                   SELECT b.* FROM bookings b WHERE b.account_id = ${$.account} AND ${BELOW} AND ${WITHIN_ACCOUNT} AND ${ROW_FILTERS}
                    ORDER BY b.id DESC LIMIT ${PAGE.$.limit}
                 ) AS b ${CSV_JOINED}`),
          values: PAGE.values({ ...filterValues(accountId, filters, below), limit: batchSize }),
        }),
      );
    let pending = page(null);
    for (;;) {
      const batch = (await pending).rows[0]!;
      const more = batch.n === batchSize;
      if (more) pending = page(batch.low);
      if (batch.csv !== null) yield batch.csv;
      if (!more) return;
    }
  }
  const { rows: span } = await db.query<{ low: number | null; high: number | null }>({
    name: 'operator-bookings-dated-span',
    // OFFSET 0 keeps the planner from answering min and max by walking the primary key from either end, which reads
    // every booking made before or after the range (1.5 s over a million); the range's own index entries take 50 ms.
    text: `SELECT min(id) AS low, max(id) AS high FROM (
             SELECT id FROM bookings
              WHERE account_id = ${$.account} AND local_date >= coalesce(${$.from}::date, '-infinity') AND local_date <= coalesce(${$.to}::date, 'infinity')
             OFFSET 0) AS dated`,
    values: SPAN.values({ account: accountId, from: filters.From ?? null, to: filters.To ?? null }),
  });
  const { low, high } = span[0]!;
  if (low === null || high === null) return;
  // Half the ids of a span or more are the range's (bookings are made weeks before their date): a window of twice the
  // batch holds about a batch of rows.
  const window = batchSize * 2;
  const windowBelow = (below: number) =>
    prefetch(
      db.query<CsvBatch>({
        name: 'operator-bookings-csv-window',
        // The range once more on the timeslot, whose date is the booking's (it never changes): the join then hashes
        // the range's timeslots for each window rather than every one of the account's (a tenth of the export's time).
        text: csvBatch(`SELECT {columns} FROM bookings b ${CSV_JOINED} ${WHERE} AND b.id >= ${WINDOW.$.lowest}::bigint
                          AND (${$.from}::date IS NULL OR t.local_date >= ${$.from}::date) AND (${$.to}::date IS NULL OR t.local_date <= ${$.to}::date)`),
        values: WINDOW.values({ ...filterValues(accountId, filters, String(below)), lowest: Math.max(low, below - window) }),
      }),
    );
  // The windows are known beforehand, so two are asked for ahead, each on its own connection: PostgreSQL writes them
  // on both cores while the API sends the one before.
  const asked: Array<Promise<{ rows: CsvBatch[] }>> = [];
  let next = high + 1;
  const ask = () => {
    if (next <= low) return;
    asked.push(windowBelow(next));
    next -= window;
  };
  ask();
  ask();
  while (asked.length > 0) {
    const batch = (await asked.shift()!).rows[0]!;
    ask();
    if (batch.csv !== null) yield batch.csv;
  }
}

/** A batch asked for ahead: its failure reaches whoever awaits it, and none is unhandled if the consumer stops first. */
function prefetch<T>(query: Promise<T>): Promise<T> {
  query.catch(() => undefined);
  return query;
}
