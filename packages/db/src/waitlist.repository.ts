// The waitlist of full timeslots: its entries (every query takes the account id, but the offer pass's look across
// accounts), their state changes, and the offer e-mail's row in the mail outbox. The places an offer holds are an
// ordinary hold, reserved by the bookings repository's one conditional update; here only the entry follows it.
import type { WaitlistState } from '@backbone/contracts';
import { LAPSED_HOLDS } from './lapsed-holds.js';
import type { Db } from './pool.js';

export interface WaitlistContact {
  FirstName: string;
  LastName: string;
  Email: string;
  Phone?: string | null | undefined;
}

export interface WaitlistEntryRecord {
  id: number;
  accountId: string;
  timeslotId: number;
  /** The activity's public id (uuid), and the timeslot's local date and time: what a booking of it is made with. */
  activityId: string;
  date: string;
  time: string;
  position: number | null;
  participants: number;
  contact: { FirstName: string; LastName: string; Email: string; Phone: string | null };
  channel: 'online' | 'pos';
  state: WaitlistState;
  bookingId: number | null;
  bookingReference: string | null;
  offerExpiresAt: Date | null;
  createdAt: Date;
}

interface EntryRow {
  id: string;
  account_id: string;
  timeslot_id: string;
  activity_uuid: string;
  local_date: string;
  local_time: string;
  position: number | null;
  participants: number;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  channel: 'online' | 'pos';
  state: WaitlistState;
  booking_id: string | null;
  booking_reference: string | null;
  offer_expires_at: Date | null;
  created_at: Date;
}

const toEntry = (r: EntryRow): WaitlistEntryRecord => ({
  id: Number(r.id),
  accountId: r.account_id,
  timeslotId: Number(r.timeslot_id),
  activityId: r.activity_uuid,
  date: r.local_date,
  time: r.local_time,
  position: r.position === null ? null : Number(r.position),
  participants: r.participants,
  contact: { FirstName: r.first_name, LastName: r.last_name, Email: r.email, Phone: r.phone },
  channel: r.channel,
  state: r.state,
  bookingId: r.booking_id === null ? null : Number(r.booking_id),
  bookingReference: r.booking_reference,
  offerExpiresAt: r.offer_expires_at,
  createdAt: r.created_at,
});

// The position is counted among the timeslot's waiting entries, in the queue's order (created_at, then id).
const ENTRY_SELECT = `
  SELECT w.id, w.account_id, w.timeslot_id, a.activity_id AS activity_uuid, to_char(t.local_date, 'YYYY-MM-DD') AS local_date,
         to_char(t.local_time, 'HH24:MI') AS local_time,
         CASE WHEN w.state = 'waiting' THEN (SELECT count(*)::int FROM waitlist_entries q
                                              WHERE q.timeslot_id = w.timeslot_id AND q.state = 'waiting'
                                                AND (q.created_at, q.id) <= (w.created_at, w.id)) END AS position,
         w.participants, w.first_name, w.last_name, w.email, w.phone, w.channel, w.state, w.booking_id, b.reference AS booking_reference,
         CASE WHEN w.state = 'offered' THEN w.offer_expires_at END AS offer_expires_at, w.created_at
    FROM waitlist_entries w
    JOIN timeslots t ON t.id = w.timeslot_id
    JOIN activities a ON a.id = t.activity_id
    LEFT JOIN bookings b ON b.id = w.booking_id`;

/** A timeslot as a join sees it: whether it takes bookings, and how many places are free (lapsed holds counted free). */
export interface WaitlistTimeslot {
  id: number;
  activityId: string;
  date: string;
  time: string;
  open: boolean;
  started: boolean;
  available: number;
  maxParticipants: number;
}

interface SlotRow {
  id: string;
  activity_uuid: string;
  local_date: string;
  local_time: string;
  open: boolean;
  started: boolean;
  available: number;
  max_participants: number;
}

const toSlot = (r: SlotRow): WaitlistTimeslot => ({
  id: Number(r.id),
  activityId: r.activity_uuid,
  date: r.local_date,
  time: r.local_time,
  open: r.open,
  started: r.started,
  available: Number(r.available),
  maxParticipants: r.max_participants,
});

const SLOT_SELECT = `
  SELECT t.id, a.activity_id AS activity_uuid, to_char(t.local_date, 'YYYY-MM-DD') AS local_date, to_char(t.local_time, 'HH24:MI') AS local_time,
         t.status = 'open' AS open, t.starts_at <= now() AS started, greatest(0, t.capacity - (t.booked - ${LAPSED_HOLDS}))::int AS available,
         a.max_participants
    FROM timeslots t JOIN activities a ON a.id = t.activity_id`;

/** The account's timeslot by id (the console's), or null. */
export async function findWaitlistTimeslotById(db: Db, accountId: string, timeslotId: number): Promise<WaitlistTimeslot | null> {
  const { rows } = await db.query<SlotRow>({
    name: 'waitlist-slot-by-id',
    text: `${SLOT_SELECT} WHERE t.account_id = $1 AND t.id = $2`,
    values: [accountId, timeslotId],
  });
  return rows[0] ? toSlot(rows[0]) : null;
}

/**
 * The timeslot of an activity of the shopfront at a local date and time (the booking page's); null when the account
 * offers no such activity, `missing` when the activity has no timeslot then.
 */
export async function findShopWaitlistTimeslot(
  db: Db,
  accountId: string,
  at: { activityId: string; date: string; time: string },
): Promise<WaitlistTimeslot | 'missing' | null> {
  const { rows } = await db.query<SlotRow & { has_activity: boolean }>({
    name: 'waitlist-slot-of-shop',
    text: `SELECT t.id, a.activity_id AS activity_uuid, to_char(t.local_date, 'YYYY-MM-DD') AS local_date, to_char(t.local_time, 'HH24:MI') AS local_time,
                  t.status = 'open' AS open, t.starts_at <= now() AS started,
                  greatest(0, t.capacity - (t.booked - ${LAPSED_HOLDS}))::int AS available, a.max_participants
             FROM activities a
             LEFT JOIN timeslots t ON t.activity_id = a.id AND t.local_date = $3 AND t.local_time = $4
            WHERE a.account_id = $1 AND a.activity_id = $2 AND a.active AND a.in_shopfront`,
    values: [accountId, at.activityId, at.date, at.time],
  });
  const row = rows[0];
  if (!row) return null;
  return row.id === null ? 'missing' : toSlot(row);
}

/**
 * Adds an entry at the end of the timeslot's queue, or answers the live entry of the same address (the unique index:
 * of two joins at once, one inserts and the other, once it committed, finds it).
 */
export async function joinWaitlist(
  db: Db,
  entry: { accountId: string; timeslotId: number; participants: number; contact: WaitlistContact; channel: 'online' | 'pos' },
): Promise<{ entry: WaitlistEntryRecord; created: boolean }> {
  const { rows } = await db.query<{ id: string }>({
    name: 'waitlist-join',
    text: `INSERT INTO waitlist_entries (account_id, timeslot_id, participants, first_name, last_name, email, phone, channel)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (timeslot_id, lower(email)) WHERE state IN ('waiting', 'offered') DO NOTHING
           RETURNING id`,
    values: [
      entry.accountId,
      entry.timeslotId,
      entry.participants,
      entry.contact.FirstName,
      entry.contact.LastName,
      entry.contact.Email,
      entry.contact.Phone ?? null,
      entry.channel,
    ],
  });
  if (rows[0]) return { entry: (await findWaitlistEntry(db, entry.accountId, Number(rows[0].id)))!, created: true };
  const { rows: live } = await db.query<EntryRow>({
    name: 'waitlist-live-of-address',
    text: `${ENTRY_SELECT} WHERE w.account_id = $1 AND w.timeslot_id = $2 AND lower(w.email) = lower($3) AND w.state IN ('waiting', 'offered')`,
    values: [entry.accountId, entry.timeslotId, entry.contact.Email],
  });
  // Left the queue between the conflict and this read: join again.
  if (!live[0]) return joinWaitlist(db, entry);
  return { entry: toEntry(live[0]), created: false };
}

export async function findWaitlistEntry(db: Db, accountId: string, id: number): Promise<WaitlistEntryRecord | null> {
  const { rows } = await db.query<EntryRow>({ name: 'waitlist-entry', text: `${ENTRY_SELECT} WHERE w.account_id = $1 AND w.id = $2`, values: [accountId, id] });
  return rows[0] ? toEntry(rows[0]) : null;
}

/** The entry whose offer made this booking (its hold), or null. */
export async function findWaitlistEntryOfBooking(db: Db, accountId: string, bookingId: number): Promise<WaitlistEntryRecord | null> {
  const { rows } = await db.query<EntryRow>({
    name: 'waitlist-entry-of-booking',
    text: `${ENTRY_SELECT} WHERE w.account_id = $1 AND w.booking_id = $2 ORDER BY w.id DESC LIMIT 1`,
    values: [accountId, bookingId],
  });
  return rows[0] ? toEntry(rows[0]) : null;
}

/** A timeslot's waitlist: the queue in order, the open offers, then the latest 200 entries no longer live. */
export async function listWaitlistOfTimeslot(db: Db, accountId: string, timeslotId: number): Promise<WaitlistEntryRecord[]> {
  const { rows } = await db.query<EntryRow>({
    name: 'waitlist-of-timeslot',
    text: `(${ENTRY_SELECT} WHERE w.account_id = $1 AND w.timeslot_id = $2 AND w.state IN ('waiting', 'offered')
             ORDER BY w.state = 'offered', w.created_at, w.id)
           UNION ALL
           (${ENTRY_SELECT} WHERE w.account_id = $1 AND w.timeslot_id = $2 AND w.state NOT IN ('waiting', 'offered')
             ORDER BY w.updated_at DESC, w.id DESC LIMIT 200)`,
    values: [accountId, timeslotId],
  });
  return rows.map(toEntry);
}

/**
 * Moves an entry from one of `from` to `to`, with the booking when given (an offer's hold, a booking made for it) and
 * the offer's expiry; false when the entry was not in one of those states (another hand was first).
 */
export async function moveWaitlistEntry(
  db: Db,
  accountId: string,
  id: number,
  change: { from: readonly WaitlistState[]; to: WaitlistState; bookingReference?: string; offerExpiresAt?: Date },
): Promise<boolean> {
  const { rowCount } = await db.query({
    name: 'waitlist-move',
    text: `UPDATE waitlist_entries w
              SET state = $4, updated_at = now(),
                  booking_id = coalesce((SELECT b.id FROM bookings b WHERE b.account_id = $1 AND b.reference = $5), w.booking_id),
                  offered_at = CASE WHEN $4 = 'offered' THEN now() ELSE w.offered_at END,
                  offer_expires_at = coalesce($6, w.offer_expires_at)
            WHERE w.account_id = $1 AND w.id = $2 AND w.state = ANY($3::text[])`,
    values: [accountId, id, [...change.from], change.to, change.bookingReference ?? null, change.offerExpiresAt ?? null],
  });
  return rowCount === 1;
}

/** The offer e-mail: written with the offer's hold, in its transaction, for the mail worker to render and send. */
export async function insertWaitlistOfferMail(
  db: Db,
  mail: { accountId: string; bookingReference: string; toAddress: string; data: Record<string, unknown> },
): Promise<void> {
  const { rowCount } = await db.query({
    name: 'waitlist-offer-mail',
    text: `INSERT INTO mail_messages (account_id, booking_id, kind, dedupe_key, to_address, data)
           SELECT $1, b.id, 'waitlist-offer', 'waitlist-offer:' || b.id, $3, $4::jsonb FROM bookings b WHERE b.account_id = $1 AND b.reference = $2
           ON CONFLICT (account_id, dedupe_key) DO NOTHING`,
    values: [mail.accountId, mail.bookingReference, mail.toAddress, JSON.stringify(mail.data)],
  });
  if (rowCount !== 1) throw new Error(`no offer e-mail written for booking ${mail.bookingReference}`);
}

/**
 * Brings the offers in line with their holds, across accounts: an offer whose hold was booked (on the page, or by staff)
 * is claimed; one whose hold lapsed or was let go is expired, and its places pass on. An entry still waiting when its
 * timeslot starts is expired too. Answers how many entries changed.
 */
export async function settleWaitlistOffers(db: Db, limit: number): Promise<number> {
  const { rows } = await db.query<{ changed: number }>({
    name: 'waitlist-settle',
    text: `WITH due AS (
             SELECT w.id, CASE WHEN b.status = 'confirmed' THEN 'claimed' ELSE 'expired' END AS state
               FROM waitlist_entries w
               LEFT JOIN bookings b ON b.id = w.booking_id
              WHERE w.state = 'offered' AND (b.id IS NULL OR b.status <> 'on_hold' OR b.expires_at <= now())
              LIMIT $1
           ), started AS (
             SELECT w.id, 'expired' AS state
               FROM waitlist_entries w JOIN timeslots t ON t.id = w.timeslot_id
              WHERE w.state = 'waiting' AND t.starts_at <= now()
              LIMIT $1
           ), changed AS (
             UPDATE waitlist_entries w SET state = d.state, updated_at = now()
               FROM (SELECT * FROM due UNION ALL SELECT * FROM started) d
              WHERE w.id = d.id AND w.state IN ('waiting', 'offered')
             RETURNING 1
           )
           SELECT count(*)::int AS changed FROM changed`,
    values: [limit],
  });
  return rows[0]?.changed ?? 0;
}

/** A timeslot whose queue's smallest party fits in its free places: an offer pass has work there. */
export interface TimeslotWithRoom {
  accountId: string;
  timeslotId: number;
  available: number;
}

/**
 * Open timeslots still to come, of any account, with a waiting entry whose party fits in the free places (lapsed holds
 * counted free, as every read counts them). The queue's partial index keeps this to the timeslots that have one.
 */
export async function listTimeslotsWithRoomForWaitlist(db: Db, limit: number): Promise<TimeslotWithRoom[]> {
  const { rows } = await db.query<{ account_id: string; id: string; available: number }>({
    name: 'waitlist-slots-with-room',
    text: `SELECT t.account_id, t.id, greatest(0, t.capacity - (t.booked - ${LAPSED_HOLDS}))::int AS available
             FROM (SELECT timeslot_id, min(participants) AS smallest FROM waitlist_entries WHERE state = 'waiting' GROUP BY timeslot_id) q
             JOIN timeslots t ON t.id = q.timeslot_id
            WHERE t.status = 'open' AND t.starts_at > now() AND t.capacity - (t.booked - ${LAPSED_HOLDS}) >= q.smallest
            ORDER BY t.starts_at
            LIMIT $1`,
    values: [limit],
  });
  return rows.map((r) => ({ accountId: r.account_id, timeslotId: Number(r.id), available: Number(r.available) }));
}

/** The waiting entries of a timeslot in the queue's order (ids and parties: what an offer pass needs). */
export async function listWaitingEntries(db: Db, accountId: string, timeslotId: number): Promise<{ id: number; participants: number }[]> {
  const { rows } = await db.query<{ id: string; participants: number }>({
    name: 'waitlist-waiting',
    text: `SELECT id, participants FROM waitlist_entries WHERE account_id = $1 AND timeslot_id = $2 AND state = 'waiting' ORDER BY created_at, id LIMIT 1000`,
    values: [accountId, timeslotId],
  });
  return rows.map((r) => ({ id: Number(r.id), participants: r.participants }));
}

/** How long the account's offers hold their places, and its booking page's slug when the page is on (the claim link's). */
export async function findWaitlistOfferSettings(db: Db, accountId: string): Promise<{ offerMinutes: number; slug: string | null }> {
  const { rows } = await db.query<{ waitlist_offer_minutes: number | null; slug: string | null; enabled: boolean | null }>({
    name: 'waitlist-offer-settings',
    text: `SELECT p.waitlist_offer_minutes, p.slug, p.enabled FROM accounts a LEFT JOIN booking_pages p ON p.account_id = a.id WHERE a.id = $1`,
    values: [accountId],
  });
  const row = rows[0];
  return { offerMinutes: row?.waitlist_offer_minutes ?? 30, slug: row?.enabled ? row.slug : null };
}
