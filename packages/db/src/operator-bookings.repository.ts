// The console's reads of bookings: every channel, filtered, keyset-paged newest first by id. Bookings made while
// someone pages get higher ids, so they land before the first page and never shift or repeat rows of later pages.
import type { BookingDetail, BookingListQuery, OperatorBooking } from '@backbone/contracts';
import { formatInZone } from '@backbone/domain';
import type { Db } from './pool.js';

export type BookingFilters = Omit<BookingListQuery, 'Limit' | 'Cursor'>;

interface Row {
  id: string;
  reference: string;
  status: OperatorBooking['Status'];
  channel: OperatorBooking['Channel'];
  activity_id: string;
  name: string;
  local_date: string;
  local_time: string;
  starts_at: Date;
  time_zone: string;
  participants: number;
  customer: { FirstName: string; LastName: string; Email: string; Phone?: string | null };
  payment_reference: string | null;
  partner_name: string | null;
  created_at: Date;
  answers?: BookingDetail['Answers'];
}

// A hold whose expiry has passed is expired in every answer, whether or not the sweeper has marked it yet.
const STATUS = `CASE WHEN b.status = 'on_hold' AND b.expires_at <= now() THEN 'expired' ELSE b.status END`;

const SELECT = `SELECT b.id, b.reference, ${STATUS} AS status, b.channel, a.activity_id, a.name,
            to_char(t.local_date, 'YYYY-MM-DD') AS local_date, to_char(t.local_time, 'HH24:MI') AS local_time,
            t.starts_at, a.time_zone, b.participants, b.customer, b.payment_reference, p.name AS partner_name, b.created_at`;

const FROM = `FROM bookings b
       JOIN timeslots t ON t.id = b.timeslot_id
       JOIN activities a ON a.account_id = b.account_id AND a.id = b.activity_id
       LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id`;

// The free-text search's haystack: exactly the expression of the trigram index bookings_search_idx.
const SEARCH_TEXT = `(b.reference || ' ' || coalesce(b.payment_reference, '') || ' ' || coalesce(b.customer->>'Email', '') || ' ' ||
  coalesce(b.customer->>'FirstName', '') || ' ' || coalesce(b.customer->>'LastName', ''))`;

// $1 account, $2 from, $3 to, $4 channel, $5 status, $6 activity, $7 LIKE pattern, $8 id below (keyset). The bound
// on the id is a plain range (no "IS NULL OR"), so that even a generic plan of the prepared statement seeks to it.
const BELOW = `b.id < coalesce($8::bigint, 9223372036854775807)`;
// Without free text, the range also lies within the account's first and last bookings: a walk down the primary key (the
// planner's choice for an account that holds most bookings) would otherwise read every newer booking of other accounts
// before the first page and every older one after the last. Not with free text: there the bounds make the walk look
// cheap and the planner leaves the trigram index even for a reference that matches once (2 s instead of 4 ms).
const WITHIN_ACCOUNT = `b.id >= (SELECT min(id) FROM bookings WHERE account_id = $1) AND b.id <= (SELECT max(id) FROM bookings WHERE account_id = $1)`;
const FILTERS = `($4::text IS NULL OR b.channel = $4) AND ($5::text IS NULL OR ${STATUS} = $5)
        AND ($7::text IS NULL OR ${SEARCH_TEXT} ILIKE $7)`;

const WHERE = `WHERE b.account_id = $1 AND ${BELOW} AND ${FILTERS}
        AND ($2::date IS NULL OR b.local_date >= $2::date) AND ($3::date IS NULL OR b.local_date <= $3::date)
        AND ($6::uuid IS NULL OR a.activity_id = $6::uuid)`;
const WHERE_WITHIN_ACCOUNT = `${WHERE} AND ${WITHIN_ACCOUNT}`;

// With a date range, newest first cannot come from one index: bookings are made weeks before their date, so the
// newest bookings of the account lie outside most ranges. Instead each date of the range gives its own newest page
// (from bookings_account_date_idx, starting below the cursor) and the page is the newest of those: at most a page per
// date is read, whether the range is a week or a year, the page the first or the last. An open end is the account's
// first or last date. Not with free text: the trigram index finds its few matches faster than a scan of every date.
const DATED_IDS = `WITH days AS (
         SELECT day::date FROM generate_series(
           coalesce($2::date, (SELECT min(local_date) FROM bookings WHERE account_id = $1)),
           coalesce($3::date, (SELECT max(local_date) FROM bookings WHERE account_id = $1)), interval '1 day') AS day
       ), activity AS (
         SELECT id FROM activities WHERE account_id = $1 AND activity_id = $6::uuid
       )
       SELECT picked.id FROM days CROSS JOIN LATERAL (
         SELECT b.id FROM bookings b
          WHERE b.account_id = $1 AND b.local_date = days.day AND ${BELOW} AND ${FILTERS}
            AND ($6::uuid IS NULL OR b.activity_id = (SELECT id FROM activity))
          ORDER BY b.id DESC LIMIT $9
       ) AS picked
       ORDER BY picked.id DESC LIMIT $9`;

function toBooking(r: Row): OperatorBooking {
  return {
    Reference: r.reference,
    Status: r.status,
    Channel: r.channel,
    ActivityID: r.activity_id,
    ActivityName: r.name,
    Date: r.local_date,
    Time: r.local_time,
    StartsAt: formatInZone(r.starts_at, r.time_zone),
    Participants: r.participants,
    Customer: { FirstName: r.customer.FirstName, LastName: r.customer.LastName, Email: r.customer.Email, Phone: r.customer.Phone ?? null },
    PaymentReference: r.payment_reference,
    PartnerName: r.partner_name,
    CreatedAt: r.created_at.toISOString(),
  };
}

function likePattern(text: string | undefined): string | null {
  return text === undefined ? null : `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filterValues(accountId: string, f: BookingFilters, below: string | null) {
  return [accountId, f.From ?? null, f.To ?? null, f.Channel ?? null, f.Status ?? null, f.ActivityID ?? null, likePattern(f.Q), below];
}

/** A page of at most `limit` bookings with ids below `below` (null: from the newest); `next` is the last id when more follow. */
export async function listOperatorBookings(
  db: Db,
  accountId: string,
  filters: BookingFilters,
  page: { limit: number; below: string | null },
): Promise<{ bookings: OperatorBooking[]; next: string | null }> {
  const dated = (filters.From !== undefined || filters.To !== undefined) && filters.Q === undefined;
  const values = [...filterValues(accountId, filters, page.below), page.limit + 1];
  const { rows } = await db.query<Row>(
    dated
      ? {
          name: 'operator-bookings-dated-page',
          text: `${SELECT} FROM (${DATED_IDS}) AS page JOIN bookings b ON b.id = page.id
                   JOIN timeslots t ON t.id = b.timeslot_id
                   JOIN activities a ON a.account_id = b.account_id AND a.id = b.activity_id
                   LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id
                  ORDER BY b.id DESC`,
          values,
        }
      : filters.Q === undefined
        ? { name: 'operator-bookings-page', text: `${SELECT} ${FROM} ${WHERE_WITHIN_ACCOUNT} ORDER BY b.id DESC LIMIT $9`, values }
        : { name: 'operator-bookings-search-page', text: `${SELECT} ${FROM} ${WHERE} ORDER BY b.id DESC LIMIT $9`, values },
  );
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  return { bookings: shown.map(toBooking), next: more ? shown[shown.length - 1]!.id : null };
}

/**
 * Every matching booking, newest first, in batches: only one batch is in memory at a time. With a date range the
 * export walks down the ids of the range's bookings in windows of `batchSize * 10` ids (bookings_account_id_idx),
 * reading each of the account's bookings in that span once: paging it like the list would merge a page of every date
 * for each batch, which costs more than the batch itself.
 */
export async function* streamOperatorBookings(db: Db, accountId: string, filters: BookingFilters, batchSize = 1000): AsyncGenerator<OperatorBooking[]> {
  if (filters.From === undefined && filters.To === undefined) {
    let below: string | null = null;
    do {
      const page = await listOperatorBookings(db, accountId, filters, { limit: batchSize, below });
      if (page.bookings.length > 0) yield page.bookings;
      below = page.next;
    } while (below !== null);
    return;
  }
  const { rows: span } = await db.query<{ low: number | null; high: number | null }>({
    name: 'operator-bookings-dated-span',
    // OFFSET 0 keeps the planner from answering min and max by walking the primary key from either end, which reads
    // every booking made before or after the range (1.5 s over a million); the range's own index entries take 50 ms.
    text: `SELECT min(id) AS low, max(id) AS high FROM (
             SELECT id FROM bookings
              WHERE account_id = $1 AND local_date >= coalesce($2::date, '-infinity') AND local_date <= coalesce($3::date, 'infinity')
             OFFSET 0) AS dated`,
    values: [accountId, filters.From ?? null, filters.To ?? null],
  });
  const { low, high } = span[0]!;
  if (low === null || high === null) return;
  const window = batchSize * 10;
  for (let below = high + 1; below > low; below -= window) {
    const { rows } = await db.query<Row>({
      name: 'operator-bookings-window',
      text: `${SELECT} ${FROM} ${WHERE} AND b.id >= $9::bigint ORDER BY b.id DESC`,
      values: [...filterValues(accountId, filters, String(below)), Math.max(low, below - window)],
    });
    if (rows.length > 0) yield rows.map(toBooking);
  }
}

export async function findOperatorBooking(db: Db, accountId: string, reference: string): Promise<BookingDetail | null> {
  const { rows } = await db.query<Row>(`${SELECT}, b.answers ${FROM} WHERE b.account_id = $1 AND b.reference = $2`, [accountId, reference]);
  const row = rows[0];
  return row ? { ...toBooking(row), Answers: row.answers ?? [] } : null;
}
