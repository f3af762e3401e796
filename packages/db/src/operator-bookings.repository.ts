// The console's reads of bookings: every channel, filtered, keyset-paged newest first by id. Bookings made while
// someone pages get higher ids, so they land before the first page and never shift or repeat rows of later pages. The
// SQL they share with the CSV export is operator-booking-query.ts; the rows' mapping, operator-booking-row.ts.
import type { BookingDetail, OperatorBooking } from '@backbone/contracts';
import { bookingColumns, type BookingRowOf } from './booking-row.js';
import {
  ACCOUNT,
  ACCOUNT_FIRST_ID,
  ACCOUNT_LAST_ID,
  BELOW,
  FILTERED,
  FILTERS,
  FROM,
  filterValues,
  JOINED,
  likePattern,
  PAGE,
  ROW_FILTERS,
  SEARCH_TEXT,
  SPAN,
  WHERE,
  WITHIN_ACCOUNT,
  type BookingFilters,
} from './operator-booking-query.js';
import { SELECT_LISTED, toOperatorBooking, type ListedRow } from './operator-booking-row.js';
import { tenantIs } from './tenant-check.js';
import type { Db } from './pool.js';

/** Where a page in slot order (Sort=starts_at) starts: after the booking with this id in the timeslot starting then. */
export interface SlotKey {
  /** The timeslot's start, microseconds since the Unix epoch. */
  startsAtMicros: string;
  id: string;
}

/** The search's walk: at most `limit` ids below `below` and at least `lowest`. */
const WALK = FILTERED.and('lowest', 'limit');
/** The search's turn to the trigram index: the walk's parameters and the index's pattern (see indexPattern). */
const INDEX = WALK.and('indexPattern');
const { $ } = FILTERED;

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
const SEARCH_WALKED = `${SELECT_LISTED} FROM (
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
       ${SELECT_LISTED} FROM (SELECT id FROM found ORDER BY id DESC LIMIT ${INDEX.$.limit}) AS page JOIN bookings b ON b.id = page.id ${JOINED}
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
const SLOT_PAGE = `${SELECT_LISTED}, ${SLOT_KEY} ${FROM} ${WHERE} AND ${AFTER_KEY} ORDER BY t.starts_at, b.id LIMIT ${SLOT.$.limit}`;
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
       ${SELECT_LISTED}, ${SLOT_KEY} FROM page JOIN bookings b ON b.id = page.id ${JOINED}
        ORDER BY t.starts_at, b.id`;

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
  const { rows } = await db.query<ListedRow>(
    dated
      ? {
          name: 'operator-bookings-dated-page',
          text: `${SELECT_LISTED} FROM (${DATED_IDS}) AS page JOIN bookings b ON b.id = page.id ${JOINED} ORDER BY b.id DESC`,
          values,
        }
      : { name: 'operator-bookings-page', text: `${SELECT_LISTED} ${FROM} ${WHERE_WITHIN_ACCOUNT} ORDER BY b.id DESC LIMIT ${PAGE.$.limit}`, values },
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
  const { rows } = await db.query<ListedRow & { slotMicros: string }>(
    filters.Q === undefined
      ? { name: 'operator-bookings-slot-page', text: SLOT_PAGE, values: SLOT.values(values) }
      : { text: SLOT_SEARCH, values: SLOT.and('indexPattern').values({ ...values, indexPattern: indexPattern(filters.Q) }) },
  );
  const more = rows.length > page.limit;
  const shown = more ? rows.slice(0, page.limit) : rows;
  const last = shown[shown.length - 1];
  return { bookings: shown.map(toOperatorBooking), next: more && last ? { startsAtMicros: last.slotMicros, id: String(last.id) } : null };
}

function toPage(rows: ListedRow[], limit: number): { bookings: OperatorBooking[]; next: string | null } {
  const more = rows.length > limit;
  const shown = more ? rows.slice(0, limit) : rows;
  return { bookings: shown.map(toOperatorBooking), next: more ? String(shown[shown.length - 1]!.id) : null };
}

/** Up to `limit + 1` matches of the free text below `below`, newest first: the walk, then the index (see SEARCH_WALK). */
async function searchOperatorBookings(
  db: Db,
  accountId: string,
  filters: BookingFilters,
  text: string,
  page: { limit: number; below: string | null },
): Promise<ListedRow[]> {
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
  const { rows } = await db.query<ListedRow>({
    name: 'operator-bookings-search-walk',
    text: SEARCH_WALKED,
    values: WALK.values({ ...filterValues(accountId, filters, String(top)), lowest: walkEnd > BigInt(low) ? String(walkEnd) : low, limit: page.limit + 1 }),
  });
  if (rows.length > page.limit || walkEnd <= BigInt(low)) return rows;
  const { rows: found } = await db.query<ListedRow>({
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

export async function findOperatorBooking(db: Db, accountId: string, reference: string): Promise<BookingDetail | null> {
  const { rows } = await db.query<ListedRow & Pick<BookingRowOf<'answers'>, 'answers'>>(
    `${SELECT_LISTED}, ${bookingColumns(['answers'])} ${FROM} WHERE b.reference = $2 AND ${tenantIs('b.account_id', '$1')}`,
    [accountId, reference],
  );
  const row = rows[0];
  return row ? { ...toOperatorBooking(row), Answers: (row.answers as BookingDetail['Answers'] | null) ?? [] } : null;
}
