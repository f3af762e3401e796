// The booking page's own reads and the customers' keys to their bookings: the shopfront of a page, the timeslots of a
// date with the full ones among them (the partner API lists only those with places), and the booking tokens (stored
// as their SHA-256 only), with the live holds of a client address.
import { LAPSED_HOLDS } from './lapsed-holds.js';
import type { Db } from './pool.js';

export interface ShopTimeslot {
  localTime: string;
  startsAt: Date;
  endsAt: Date;
  available: number;
}

/**
 * The open, not yet started timeslots of an activity of the shopfront on a local date, full or not, by time; null when
 * the account offers no such activity. One statement, like the partner API's read (timeslots.repository.ts).
 */
export async function listShopTimeslots(
  db: Db,
  accountId: string,
  activityId: string,
  date: string,
): Promise<{ timeZone: string; timeslots: ShopTimeslot[] } | null> {
  const { rows } = await db.query<{ time_zone: string; local_time: string | null; starts_ms: number; ends_ms: number; available: number }>({
    name: 'shop-timeslots',
    text: `SELECT a.time_zone, to_char(t.local_time, 'HH24:MI') AS local_time,
                  (extract(epoch FROM t.starts_at) * 1000)::float8 AS starts_ms, (extract(epoch FROM t.ends_at) * 1000)::float8 AS ends_ms,
                  greatest(0, t.capacity - (t.booked - ${LAPSED_HOLDS})) AS available
             FROM activities a
             LEFT JOIN timeslots t ON t.activity_id = a.id AND t.local_date = $3 AND t.status = 'open' AND t.starts_at > now()
            WHERE a.account_id = $1 AND a.activity_id = $2 AND a.active AND a.in_shopfront
            ORDER BY t.local_time`,
    values: [accountId, activityId, date],
  });
  const first = rows[0];
  if (!first) return null;
  return {
    timeZone: first.time_zone,
    timeslots: rows
      .filter((r) => r.local_time !== null)
      .map((r) => ({ localTime: r.local_time!, startsAt: new Date(r.starts_ms), endsAt: new Date(r.ends_ms), available: Number(r.available) })),
  };
}

/**
 * Records the token of a booking just made on the page, in the booking's transaction. First counts the live holds the
 * address already has, under a lock of that address (so that two holds of one address cannot both see room): answers
 * false, and records nothing, when it has `maxLiveHolds` already; the caller then rolls the hold back.
 */
export async function insertBookingToken(
  db: Db,
  token: { accountId: string; reference: string; tokenHash: Buffer; clientAddress: string; maxLiveHolds: number },
): Promise<boolean> {
  await db.query({
    name: 'booking-token-address-lock',
    text: `SELECT pg_advisory_xact_lock(hashtextextended('shop-holds:' || $1, 0))`,
    values: [token.clientAddress],
  });
  // Across accounts on purpose: the limit is the address's, whichever pages it holds places on. A hold lasts at most
  // an hour, so only the address's last hour of tokens can be live.
  const { rows } = await db.query<{ live: number }>({
    name: 'booking-token-live-holds',
    text: `SELECT count(*)::int AS live FROM booking_tokens k JOIN bookings b ON b.id = k.booking_id
            WHERE k.client_address = $1 AND k.created_at > now() - interval '1 hour' AND b.status = 'on_hold' AND b.expires_at > now()`,
    values: [token.clientAddress],
  });
  if ((rows[0]?.live ?? 0) >= token.maxLiveHolds) return false;
  const { rowCount } = await db.query({
    name: 'booking-token-insert',
    text: `INSERT INTO booking_tokens (booking_id, account_id, token_hash, client_address)
           SELECT b.id, b.account_id, $3, $4 FROM bookings b WHERE b.account_id = $1 AND b.reference = $2`,
    values: [token.accountId, token.reference, token.tokenHash, token.clientAddress],
  });
  if (rowCount !== 1) throw new Error(`booking ${token.reference} not found for its token`);
  return true;
}

/** The reference and id of the account's booking this token opens; null when it opens none. */
export async function findBookingByToken(db: Db, accountId: string, tokenHash: Buffer): Promise<{ reference: string; id: number } | null> {
  const { rows } = await db.query<{ reference: string; id: string }>({
    name: 'booking-by-token',
    text: `SELECT b.reference, b.id FROM booking_tokens k JOIN bookings b ON b.id = k.booking_id WHERE k.token_hash = $2 AND k.account_id = $1`,
    values: [accountId, tokenHash],
  });
  const row = rows[0];
  return row ? { reference: row.reference, id: Number(row.id) } : null;
}

/**
 * Records a token minted for one e-mail of the account's booking (the mail worker's manage link). It commits on its
 * own, before the message leaves: a link that was sent always opens its booking, and one that never left is a hash
 * nobody holds.
 */
/** Tokens of several messages' manage links in one statement (the mail worker's batch); throws when a booking is gone. */
export async function insertMailBookingTokens(db: Db, tokens: readonly { accountId: string; bookingId: number; tokenHash: Buffer }[]): Promise<void> {
  if (tokens.length === 0) return;
  const { rowCount } = await db.query({
    name: 'booking-tokens-insert-mail',
    text: `INSERT INTO booking_tokens (booking_id, account_id, token_hash)
           SELECT b.id, b.account_id, t.token_hash
             FROM unnest($1::uuid[], $2::bigint[], $3::bytea[]) AS t(account_id, booking_id, token_hash)
             JOIN bookings b ON b.account_id = t.account_id AND b.id = t.booking_id`,
    values: [tokens.map((t) => t.accountId), tokens.map((t) => t.bookingId), tokens.map((t) => t.tokenHash)],
  });
  if (rowCount !== tokens.length) throw new Error(`${tokens.length - (rowCount ?? 0)} of ${tokens.length} bookings not found for their tokens`);
}
