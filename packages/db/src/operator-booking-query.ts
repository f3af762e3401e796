// The SQL that the console's booking reads share (the list, its search and the CSV export): the joined tables, the
// statements' parameters in their order, and the filters, with their values.
import type { BookingListQuery } from '@backbone/contracts';
import { PARTNER_JOIN, SHOWN_STATUS } from './booking-row.js';
import { sqlParameters } from './sql-parameters.js';

export type BookingFilters = Omit<BookingListQuery, 'Limit' | 'Cursor' | 'Sort'>;

export const JOINED = `JOIN timeslots t ON t.id = b.timeslot_id
       JOIN activities a ON a.account_id = b.account_id AND a.id = b.activity_id
       ${PARTNER_JOIN}`;
export const FROM = `FROM bookings b ${JOINED}`;

// The free-text search's haystack, its accents folded (migration 1763790000000): exactly the expression of the
// trigram index bookings_unaccented_search_idx. The text searched for is folded alike, so that "Joao" finds João and
// "João" Joao; ILIKE ignores case.
const HAYSTACK = `b.reference || ' ' || coalesce(b.payment_reference, '') || ' ' || coalesce(b.customer->>'Email', '') || ' ' ||
  coalesce(b.customer->>'FirstName', '') || ' ' || coalesce(b.customer->>'LastName', '')`;
export const SEARCH_TEXT = `unaccented(${HAYSTACK})`;

// The statements' parameters, numbered in this order: the account; the date range (From, To); the filters (Channel,
// Status, ActivityID, the free text's LIKE pattern) and the keyset's id below, null for the first page. Each statement
// takes those it needs, in turn (the spans only the first, or the first three), then its own.
export const ACCOUNT = sqlParameters('account');
export const SPAN = ACCOUNT.and('from', 'to');
export const FILTERED = SPAN.and('channel', 'status', 'activity', 'pattern', 'test', 'below');
/** A page: at most `limit` ids below `below`. */
export const PAGE = FILTERED.and('limit');
const { $ } = FILTERED;

// The bound on the id is a plain range (no "IS NULL OR"), so that even a generic plan of the prepared statement seeks
// to it.
export const BELOW = `b.id < coalesce(${$.below}::bigint, 9223372036854775807)`;
// The account's first and last booking, from bookings_account_id_idx. Asked as min(id) and max(id), the planner
// may walk the primary key from either end instead (its choice when the account holds most bookings), through every
// newer or older booking of other accounts (155,000 of them: 87 ms). The range on account_id (not an equality) keeps
// the account's index order, which only that index gives; LIMIT 1 reads its first entry.
export const ACCOUNT_FIRST_ID = `(SELECT id FROM bookings WHERE account_id >= ${$.account} AND account_id <= ${$.account} ORDER BY account_id DESC, id LIMIT 1)`;
export const ACCOUNT_LAST_ID = `(SELECT id FROM bookings WHERE account_id >= ${$.account} AND account_id <= ${$.account} ORDER BY account_id, id DESC LIMIT 1)`;
// The range also lies within the account's first and last bookings: a walk down the primary key (the planner's choice
// for an account that holds most bookings) would otherwise read every newer booking of other accounts before the
// first page and every older one after the last.
export const WITHIN_ACCOUNT = `b.id >= ${ACCOUNT_FIRST_ID} AND b.id <= ${ACCOUNT_LAST_ID}`;
// The free text as the search's walks test it: the same folded text, written so that it is not the index's expression. A
// walk must stay a walk that its LIMIT bounds; the planner would otherwise swap it for the index's bitmap of every
// match, which for a frequent term holds tens of thousands of bookings to read and sort (150 ms and more over a
// million). The wrapper's body itself, not the wrapper: an IMMUTABLE SQL function over a STABLE one is never inlined,
// and its call costs more than the fold (4.1 against 2.2 µs a booking). The pattern is folded once, as an InitPlan.
const WALKED_SEARCH_TEXT = `public.unaccent('public.unaccent'::regdictionary, ${HAYSTACK})`;
// The channel filter: a partner's bookings made through OCTO (they carry its uuid) are a channel of their own, octo, and
// ota the partner API's own, as the list shows them.
const CHANNEL_MATCHES = `CASE ${$.channel}::text WHEN 'octo' THEN b.channel = 'ota' AND b.octo_uuid IS NOT NULL
                               WHEN 'ota' THEN b.channel = 'ota' AND b.octo_uuid IS NULL
                               ELSE b.channel = ${$.channel}::text END`;
// Live bookings, or with Test the sandbox's test bookings: never both in one view.
export const FILTERS = `b.test = ${$.test}::boolean
        AND (${$.channel}::text IS NULL OR ${CHANNEL_MATCHES}) AND (${$.status}::text IS NULL OR ${SHOWN_STATUS} = ${$.status})
        AND (${$.pattern}::text IS NULL OR ${WALKED_SEARCH_TEXT} ILIKE (SELECT unaccented(${$.pattern}::text)))`;
// Every filter on the booking's own columns (the activity by its internal id), for the search's queries, which join
// the timeslot, activity and partner only for the rows of the page.
export const ROW_FILTERS = `${FILTERS}
        AND (${$.from}::date IS NULL OR b.local_date >= ${$.from}::date) AND (${$.to}::date IS NULL OR b.local_date <= ${$.to}::date)
        AND (${$.activity}::uuid IS NULL OR b.activity_id = (SELECT id FROM activities WHERE account_id = ${$.account} AND activity_id = ${$.activity}::uuid))`;

export const WHERE = `WHERE b.account_id = ${$.account} AND ${BELOW} AND ${FILTERS}
        AND (${$.from}::date IS NULL OR b.local_date >= ${$.from}::date) AND (${$.to}::date IS NULL OR b.local_date <= ${$.to}::date)
        AND (${$.activity}::uuid IS NULL OR a.activity_id = ${$.activity}::uuid)`;

export function likePattern(text: string | undefined): string | null {
  return text === undefined ? null : `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The values of FILTERED's parameters. */
export function filterValues(accountId: string, f: BookingFilters, below: string | null) {
  return {
    account: accountId,
    from: f.From ?? null,
    to: f.To ?? null,
    channel: f.Channel ?? null,
    status: f.Status ?? null,
    activity: f.ActivityID ?? null,
    pattern: likePattern(f.Q),
    test: f.Test ?? false,
    below,
  };
}
