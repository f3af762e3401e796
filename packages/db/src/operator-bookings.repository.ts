// The console's reads of bookings: every channel, filtered, keyset-paged newest first by id. Bookings made while
// someone pages get higher ids, so they land before the first page and never shift or repeat rows of later pages.
import { BOOKING_CSV_COLUMNS, type BookingDetail, type BookingListQuery, type OperatorBooking } from '@backbone/contracts';
import { answeredCustomer, bookingColumns, PARTNER_JOIN, SHOWN_STATUS, toBookingRecord, type BookingRowOf } from './booking-row.js';
import { isoInstantSql } from './iso-instant.js';
import { sqlParameters } from './sql-parameters.js';
import { tenantIs } from './tenant-check.js';
import type { Db } from './pool.js';

export type BookingFilters = Omit<BookingListQuery, 'Limit' | 'Cursor' | 'Sort'>;

/** Where a page in slot order (Sort=starts_at) starts: after the booking with this id in the timeslot starting then. */
export interface SlotKey {
  /** The timeslot's start, microseconds since the Unix epoch. */
  startsAtMicros: string;
  id: string;
}

/** What the console's list shows of a booking (its status as shown: a hold past its expiry is expired). */
const LISTED = [
  'id',
  'reference',
  'status',
  'channel',
  'activityId',
  'activityName',
  'date',
  'time',
  'startsAtInstant',
  'timeZone',
  'participants',
  'customer',
  'paymentReference',
  'partnerName',
  'createdAt',
  'unitPriceMinor',
  'currency',
  'priceAtSale',
  'note',
  'checkedInAt',
  'cancellationReason',
] as const;
type Row = BookingRowOf<(typeof LISTED)[number]>;

const STATUS = SHOWN_STATUS;

const SELECT = `SELECT ${bookingColumns(LISTED)}`;

const JOINED = `JOIN timeslots t ON t.id = b.timeslot_id
       JOIN activities a ON a.account_id = b.account_id AND a.id = b.activity_id
       ${PARTNER_JOIN}`;
const FROM = `FROM bookings b ${JOINED}`;

// The free-text search's haystack, its accents folded (migration 1763790000000): exactly the expression of the
// trigram index bookings_unaccented_search_idx. The text searched for is folded alike, so that "Joao" finds João and
// "João" Joao; ILIKE ignores case.
const HAYSTACK = `b.reference || ' ' || coalesce(b.payment_reference, '') || ' ' || coalesce(b.customer->>'Email', '') || ' ' ||
  coalesce(b.customer->>'FirstName', '') || ' ' || coalesce(b.customer->>'LastName', '')`;
const SEARCH_TEXT = `unaccented(${HAYSTACK})`;

// The statements' parameters, numbered in this order: the account; the date range (From, To); the filters (Channel,
// Status, ActivityID, the free text's LIKE pattern) and the keyset's id below, null for the first page. Each statement
// takes those it needs, in turn (the spans only the first, or the first three), then its own.
const ACCOUNT = sqlParameters('account');
const SPAN = ACCOUNT.and('from', 'to');
const FILTERED = SPAN.and('channel', 'status', 'activity', 'pattern', 'below');
/** A page: at most `limit` ids below `below`. */
const PAGE = FILTERED.and('limit');
/** The search's walk: at most `limit` ids below `below` and at least `lowest`. */
const WALK = FILTERED.and('lowest', 'limit');
/** The search's turn to the trigram index: the walk's parameters and the index's pattern (see indexPattern). */
const INDEX = WALK.and('indexPattern');
/** An export's window: every id below `below` and at least `lowest`. */
const WINDOW = FILTERED.and('lowest');
const { $ } = FILTERED;

// The bound on the id is a plain range (no "IS NULL OR"), so that even a generic plan of the prepared statement seeks
// to it.
const BELOW = `b.id < coalesce(${$.below}::bigint, 9223372036854775807)`;
// The account's first and last booking, from bookings_account_id_idx. Asked as min(id) and max(id), the planner
// may walk the primary key from either end instead (its choice when the account holds most bookings), through every
// newer or older booking of other accounts (155,000 of them: 87 ms). The range on account_id (not an equality) keeps
// the account's index order, which only that index gives; LIMIT 1 reads its first entry.
const ACCOUNT_FIRST_ID = `(SELECT id FROM bookings WHERE account_id >= ${$.account} AND account_id <= ${$.account} ORDER BY account_id DESC, id LIMIT 1)`;
const ACCOUNT_LAST_ID = `(SELECT id FROM bookings WHERE account_id >= ${$.account} AND account_id <= ${$.account} ORDER BY account_id, id DESC LIMIT 1)`;
// The range also lies within the account's first and last bookings: a walk down the primary key (the planner's choice
// for an account that holds most bookings) would otherwise read every newer booking of other accounts before the
// first page and every older one after the last.
const WITHIN_ACCOUNT = `b.id >= ${ACCOUNT_FIRST_ID} AND b.id <= ${ACCOUNT_LAST_ID}`;
// The free text as the walks below test it: the same folded text, written so that it is not the index's expression. A
// walk must stay a walk that its LIMIT bounds; the planner would otherwise swap it for the index's bitmap of every
// match, which for a frequent term holds tens of thousands of bookings to read and sort (150 ms and more over a
// million). The wrapper's body itself, not the wrapper: an IMMUTABLE SQL function over a STABLE one is never inlined,
// and its call costs more than the fold (4.1 against 2.2 µs a booking). The pattern is folded once, as an InitPlan.
const WALKED_SEARCH_TEXT = `public.unaccent('public.unaccent'::regdictionary, ${HAYSTACK})`;
const FILTERS = `(${$.channel}::text IS NULL OR b.channel = ${$.channel}) AND (${$.status}::text IS NULL OR ${STATUS} = ${$.status})
        AND (${$.pattern}::text IS NULL OR ${WALKED_SEARCH_TEXT} ILIKE (SELECT unaccented(${$.pattern}::text)))`;
// Every filter on the booking's own columns (the activity by its internal id), for the search's queries, which join
// the timeslot, activity and partner only for the rows of the page.
const ROW_FILTERS = `${FILTERS}
        AND (${$.from}::date IS NULL OR b.local_date >= ${$.from}::date) AND (${$.to}::date IS NULL OR b.local_date <= ${$.to}::date)
        AND (${$.activity}::uuid IS NULL OR b.activity_id = (SELECT id FROM activities WHERE account_id = ${$.account} AND activity_id = ${$.activity}::uuid))`;

const WHERE = `WHERE b.account_id = ${$.account} AND ${BELOW} AND ${FILTERS}
        AND (${$.from}::date IS NULL OR b.local_date >= ${$.from}::date) AND (${$.to}::date IS NULL OR b.local_date <= ${$.to}::date)
        AND (${$.activity}::uuid IS NULL OR a.activity_id = ${$.activity}::uuid)`;
const WHERE_WITHIN_ACCOUNT = `${WHERE} AND ${WITHIN_ACCOUNT}`;

// The dates of the range that can hold bookings: within the account's first and last booking's date, so an open end
// is that date, and a range of 0001-01-01 to 9999-12-31 is as many days as the account has (it was 3.6 million, 15 s).
const RANGE_DAYS = `SELECT day::date FROM (SELECT min(local_date) AS first, max(local_date) AS last FROM bookings WHERE account_id = ${$.account}) AS span,
           generate_series(greatest(${$.from}::date, span.first), least(${$.to}::date, span.last), interval '1 day') AS day
          WHERE span.first IS NOT NULL`;

// With a date range, newest first cannot come from one index: bookings are made weeks before their date, so the
// newest bookings of the account lie outside most ranges. Instead each date of the range gives its own newest page
// (from bookings_account_date_idx, starting below the cursor) and the page is the newest of those: at most a page per
// date is read, whether the range is a week or a year, the page the first or the last. An open end is the account's
// first or last date. Free text is searched otherwise (SEARCH_WALK).
const DATED_IDS = `WITH days AS (
         ${RANGE_DAYS}
       ), activity AS (
         SELECT id FROM activities WHERE account_id = ${$.account} AND activity_id = ${$.activity}::uuid
       )
       SELECT picked.id FROM days CROSS JOIN LATERAL (
         SELECT b.id FROM bookings b
          WHERE b.account_id = ${$.account} AND b.local_date = days.day AND ${BELOW} AND ${FILTERS}
            AND (${$.activity}::uuid IS NULL OR b.activity_id = (SELECT id FROM activity))
          ORDER BY b.id DESC LIMIT ${PAGE.$.limit}
       ) AS picked
       ORDER BY picked.id DESC LIMIT ${PAGE.$.limit}`;

// Free text: a frequent term (a last name, an e-mail domain, a partner's prefix) matches tens of thousands of
// bookings, which the trigram index hands over unordered, to be read and sorted for the newest 50; a rare one (a
// reference, an address) matches a handful, which a walk down the account's bookings would look for in vain. So a
// search first walks down the ids below the cursor (at most SEARCH_WALK of them; a frequent term fills its page
// within a few hundred) and turns to the index only below them, and only when the walk neither filled the page nor
// reached the first id of the span: then the term is rare there, and so is the index's bitmap.

/** Ids a search walks before it turns to the trigram index. */
const SEARCH_WALK = 4000n;
/**
 * The same with a date range: bookings are made up to weeks before their date, so among the newest ids of the
 * range's span few are for its dates (a quarter's newest 50 of a 2% term lie within 30,000 ids of its span's top).
 */
const DATED_SEARCH_WALK = 40000n;

// The ids a search may answer: the account's, or those of the bookings of the range's dates (each date's first and
// last booking from bookings_account_date_idx, an open end being the account's first or last date).
const ACCOUNT_SPAN = `SELECT ${ACCOUNT_FIRST_ID}::text AS low, ${ACCOUNT_LAST_ID}::text AS high`;
const DATED_SPAN = `WITH days AS (
         ${RANGE_DAYS}
       )
       SELECT min(first.id)::text AS low, max(last.id)::text AS high FROM days
        CROSS JOIN LATERAL (SELECT id FROM bookings WHERE account_id = ${$.account} AND local_date = days.day ORDER BY id LIMIT 1) AS first
        CROSS JOIN LATERAL (SELECT id FROM bookings WHERE account_id = ${$.account} AND local_date = days.day ORDER BY id DESC LIMIT 1) AS last`;

// The walk: the page's matches among the ids below `below` and at least `lowest`, newest first.
const SEARCH_WALKED = `${SELECT} FROM (
         SELECT b.* FROM bookings b WHERE b.account_id = ${$.account} AND b.id < ${$.below}::bigint AND b.id >= ${WALK.$.lowest}::bigint AND ${ROW_FILTERS}
          ORDER BY b.id DESC LIMIT ${WALK.$.limit}
       ) AS b ${JOINED} ORDER BY b.id DESC`;
// Below the walk: every match the trigram index finds (see indexPattern), collected whole (MATERIALIZED: no walk
// down an index in id order can stand in for it) and only then ordered. Sent unnamed, so planned with its values each
// time: the planner weighs the term's rarity against the account's size, which a generic plan cannot.
const SEARCH_INDEX = `WITH found AS MATERIALIZED (
         SELECT b.id FROM bookings b
          WHERE b.account_id = ${$.account} AND b.id < ${$.below}::bigint AND b.id >= ${INDEX.$.lowest}::bigint AND ${SEARCH_TEXT} ILIKE unaccented(${INDEX.$.indexPattern}::text) AND ${ROW_FILTERS}
       )
       ${SELECT} FROM (SELECT id FROM found ORDER BY id DESC LIMIT ${INDEX.$.limit}) AS page JOIN bookings b ON b.id = page.id ${JOINED}
       ORDER BY b.id DESC`;

// In slot order: by the timeslot's start, then by id (several activities may start at once), after the key. The
// account's timeslots are walked in starting order (timeslots_account_starts_idx) and each one's bookings joined
// (bookings_timeslot_idx): a timeslot holds a few dozen bookings, so a page reads about as many as it shows, the last
// page too, and a date range only bounds the walk. Ties on the start are put in id order by an incremental sort of
// that one start's bookings.
const SLOT = FILTERED.and('afterMicros', 'afterId', 'limit');
const AFTER_MICROS = `to_timestamp(${SLOT.$.afterMicros}::bigint / 1000000.0)`;
const SLOT_KEY = `(extract(epoch FROM t.starts_at) * 1000000)::bigint::text AS "slotMicros"`;
// A date range bounds the walk's start in the index: a local date begins at most 14 hours before it does in UTC and
// ends at most 12 hours after, and the session's zone moves a date's cast by as much again, so two days either side
// hold every start of the range (then the timeslot's own date decides, before its bookings are read). Without the
// bound a month in the autumn walked every timeslot and booking of the months before it (2.4 s over a million).
const AFTER_KEY = `t.account_id = ${$.account} AND t.starts_at >= coalesce(${AFTER_MICROS}, '-infinity')
        AND t.starts_at >= coalesce((${$.from}::date - 2)::timestamptz, '-infinity') AND t.starts_at < coalesce((${$.to}::date + 3)::timestamptz, 'infinity')
        AND (${$.from}::date IS NULL OR t.local_date >= ${$.from}::date) AND (${$.to}::date IS NULL OR t.local_date <= ${$.to}::date)
        AND (${SLOT.$.afterMicros}::bigint IS NULL OR t.starts_at > ${AFTER_MICROS} OR b.id > ${SLOT.$.afterId}::bigint)`;
const SLOT_PAGE = `${SELECT}, ${SLOT_KEY} ${FROM} ${WHERE} AND ${AFTER_KEY} ORDER BY t.starts_at, b.id LIMIT ${SLOT.$.limit}`;
// Free text in slot order: every match the trigram index finds (as SEARCH_INDEX), then ordered by slot. No walk in
// slot order first: unlike ids, a slot order has no bound a walk could stop at cheaply, and a name's handful of
// matches is the common search. A frequent term (an e-mail domain) costs its every match.
// Each match is ordered by its timeslot alone; the page's rows only are then read whole.
const SLOT_SEARCH = `WITH found AS MATERIALIZED (
         SELECT b.id, b.timeslot_id FROM bookings b
          WHERE b.account_id = ${$.account} AND ${BELOW} AND ${SEARCH_TEXT} ILIKE unaccented(${SLOT.and('indexPattern').$.indexPattern}::text) AND ${ROW_FILTERS}
       ), page AS (
         SELECT b.id FROM found AS b JOIN timeslots t ON t.id = b.timeslot_id
          WHERE ${AFTER_KEY} ORDER BY t.starts_at, b.id LIMIT ${SLOT.$.limit}
       )
       ${SELECT}, ${SLOT_KEY} FROM page JOIN bookings b ON b.id = page.id ${JOINED}
        ORDER BY t.starts_at, b.id`;

function toBooking(row: Row): OperatorBooking {
  const b = toBookingRecord(row);
  return {
    Reference: b.reference,
    Status: b.status,
    Channel: b.channel,
    ActivityID: b.activityId,
    ActivityName: b.activityName,
    Date: b.date,
    Time: b.time,
    StartsAt: b.startsAt,
    Participants: b.participants,
    Customer: answeredCustomer(b.customer),
    PaymentReference: b.paymentReference,
    PartnerName: b.partnerName,
    CreatedAt: b.createdAt.toISOString(),
    Price: bookingPrice(b),
    Note: b.note,
    CheckedInAt: b.checkedInAt ? b.checkedInAt.toISOString() : null,
    CancellationReason: b.cancellationReason,
  };
}

/** The price as sold, and the party's total (bigint columns arrive as text). */
export function bookingPrice(b: { unitPriceMinor: number | string; currency: string; priceAtSale: boolean; participants: number }): OperatorBooking['Price'] {
  const unit = Number(b.unitPriceMinor);
  return { UnitPriceMinor: unit, Currency: b.currency, TotalMinor: unit * b.participants, Source: b.priceAtSale ? 'sale' : 'migration' };
}

function likePattern(text: string | undefined): string | null {
  return text === undefined ? null : `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * What the trigram index is asked for: the text's longest word (letters and digits, as pg_trgm splits words) when it
 * has one of four or more characters, since every booking that holds the text holds its words (the whole text still
 * filters the rows). An e-mail address's every trigram would have the index read the huge lists of "com", "gma" and
 * the like (25 ms and more); its name part alone is rare and cheap (3 ms).
 */
function indexPattern(text: string): string {
  const longest = (text.match(/[\p{L}\p{N}]+/gu) ?? []).reduce((a, word) => (word.length > a.length ? word : a), '');
  return likePattern(longest.length >= 4 ? longest : text)!;
}

/** The values of FILTERED's parameters. */
function filterValues(accountId: string, f: BookingFilters, below: string | null) {
  return {
    account: accountId,
    from: f.From ?? null,
    to: f.To ?? null,
    channel: f.Channel ?? null,
    status: f.Status ?? null,
    activity: f.ActivityID ?? null,
    pattern: likePattern(f.Q),
    below,
  };
}

/** A page of at most `limit` bookings with ids below `below` (null: from the newest); `next` is the last id when more follow. */
export async function listOperatorBookings(
  db: Db,
  accountId: string,
  filters: BookingFilters,
  page: { limit: number; below: string | null },
): Promise<{ bookings: OperatorBooking[]; next: string | null }> {
  if (filters.Q !== undefined) return toPage(await searchOperatorBookings(db, accountId, filters, filters.Q, page), page.limit);
  const dated = filters.From !== undefined || filters.To !== undefined;
  const values = PAGE.values({ ...filterValues(accountId, filters, page.below), limit: page.limit + 1 });
  const { rows } = await db.query<Row>(
    dated
      ? {
          name: 'operator-bookings-dated-page',
          text: `${SELECT} FROM (${DATED_IDS}) AS page JOIN bookings b ON b.id = page.id ${JOINED} ORDER BY b.id DESC`,
          values,
        }
      : { name: 'operator-bookings-page', text: `${SELECT} ${FROM} ${WHERE_WITHIN_ACCOUNT} ORDER BY b.id DESC LIMIT ${PAGE.$.limit}`, values },
  );
  return toPage(rows, page.limit);
}

/** A page of at most `limit` bookings in slot order after `after` (null: from the first); `next` when more follow. */
export async function listOperatorBookingsBySlot(
  db: Db,
  accountId: string,
  filters: BookingFilters,
  page: { limit: number; after: SlotKey | null },
): Promise<{ bookings: OperatorBooking[]; next: SlotKey | null }> {
  const values = {
    ...filterValues(accountId, filters, null),
    afterMicros: page.after?.startsAtMicros ?? null,
    afterId: page.after?.id ?? null,
    limit: page.limit + 1,
  };
  const { rows } = await db.query<Row & { slotMicros: string }>(
    filters.Q === undefined
      ? { name: 'operator-bookings-slot-page', text: SLOT_PAGE, values: SLOT.values(values) }
      : { text: SLOT_SEARCH, values: SLOT.and('indexPattern').values({ ...values, indexPattern: indexPattern(filters.Q) }) },
  );
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return { bookings: shown.map(toBooking), next: more && last ? { startsAtMicros: last.slotMicros, id: String(last.id) } : null };
}

function toPage(rows: Row[], limit: number): { bookings: OperatorBooking[]; next: string | null } {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { bookings: shown.map(toBooking), next: more ? String(shown[shown.length - 1]!.id) : null };
}

/** Up to `limit + 1` matches of the free text below `below`, newest first: the walk, then the index (see SEARCH_WALK). */
async function searchOperatorBookings(
  db: Db,
  accountId: string,
  filters: BookingFilters,
  text: string,
  page: { limit: number; below: string | null },
): Promise<Row[]> {
  const dated = filters.From !== undefined || filters.To !== undefined;
  const { rows: spans } = await db.query<{ low: string | null; high: string | null }>({
    name: dated ? 'operator-bookings-search-dated-span' : 'operator-bookings-search-account-span',
    text: dated ? DATED_SPAN : ACCOUNT_SPAN,
    values: dated ? SPAN.values({ account: accountId, from: filters.From ?? null, to: filters.To ?? null }) : ACCOUNT.values({ account: accountId }),
  });
  const { low, high } = spans[0]!;
  if (low === null || high === null) return [];
  // Ids in [low, top); a cursor beyond every id (a forged one) is the same as none.
  const top = page.below !== null && BigInt(page.below) <= BigInt(high) ? BigInt(page.below) : BigInt(high) + 1n;
  const walkEnd = top - (dated ? DATED_SEARCH_WALK : SEARCH_WALK);
  const { rows } = await db.query<Row>({
    name: 'operator-bookings-search-walk',
    text: SEARCH_WALKED,
    values: WALK.values({ ...filterValues(accountId, filters, String(top)), lowest: walkEnd > BigInt(low) ? String(walkEnd) : low, limit: page.limit + 1 }),
  });
  if (rows.length > page.limit || walkEnd <= BigInt(low)) return rows;
  const { rows: found } = await db.query<Row>({
    text: SEARCH_INDEX,
    values: INDEX.values({
      ...filterValues(accountId, filters, String(walkEnd)),
      lowest: low,
      limit: page.limit + 1 - rows.length,
      indexPattern: indexPattern(text),
    }),
  });
  return [...rows, ...found];
}

// The CSV export, written by PostgreSQL: each batch comes back as one text of finished lines, so the API neither
// parses, maps nor formats a row (most of its time: 46,000 rows/s). The format is the contract's: RFC 4180 quoting,
// CRLF line ends, BOOKING_CSV_COLUMNS, and a ' before a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR).

/** Each column's value as text (null: an empty cell); `free` marks those that may hold anything. */
const CSV_VALUES: Record<(typeof BOOKING_CSV_COLUMNS)[number], { sql: string; free?: true; phone?: true }> = {
  Reference: { sql: 'b.reference' },
  Status: { sql: STATUS },
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
};
const CSV_COLUMNS = BOOKING_CSV_COLUMNS.map((column, i) => ({ ...CSV_VALUES[column], name: `c${i}` }));

/**
 * The joins of an exported booking b: its timeslot, activity and partner, and every answer in one cell, "Question:
 * value" (with the participant's number where it asks per participant; a multiple choice's values joined with ", "),
 * aggregated in one lateral join rather than a subquery in the select list.
 */
const CSV_JOINED = `${JOINED}
       LEFT JOIN LATERAL (
         SELECT string_agg(ans->>'Question' || coalesce(' #' || (ans->>'Participant'), '') || ': ' ||
                  CASE jsonb_typeof(ans->'Value') WHEN 'array' THEN array_to_string(ARRAY(SELECT jsonb_array_elements_text(ans->'Value')), ', ')
                                                 ELSE ans->>'Value' END, '; ') AS cell
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

export async function findOperatorBooking(db: Db, accountId: string, reference: string): Promise<BookingDetail | null> {
  const { rows } = await db.query<Row & Pick<BookingRowOf<'answers'>, 'answers'>>(
    `${SELECT}, ${bookingColumns(['answers'])} ${FROM} WHERE b.reference = $2 AND ${tenantIs('b.account_id', '$1')}`,
    [accountId, reference],
  );
  const row = rows[0];
  return row ? { ...toBooking(row), Answers: (row.answers as BookingDetail['Answers'] | null) ?? [] } : null;
}
