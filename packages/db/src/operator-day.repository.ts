// The operator's day in SQL: the manifest of a date (its timeslots, then their live bookings and the account's required
// questions, each statement reading only that day or that account's few questions), and the sales report's groups from
// the sums the booking triggers keep.
import type { Manifest } from '@backbone/contracts';
import { formatInZone, waiversComplete, type RequiredQuestion } from '@backbone/domain';
import { checkedInCount, operatorBookingPrice } from './operator-booking-row.js';
import { answeredCustomer, LIVE } from './booking-row.js';
import type { Db } from './pool.js';

// bigint columns arrive as numbers (pool.ts).
interface ManifestSlotRow {
  timeslot_id: number;
  activity_id: string;
  activity_name: string;
  time_zone: string;
  date: string;
  time: string;
  starts_at: Date;
  capacity: number;
  closed: boolean;
}

/**
 * A booking of the manifest, flat: every value a plain column (the customer's fields taken out of the jsonb, the
 * check-in time as text), so 2,000 rows cost the driver no JSON or date parsing.
 */
interface ManifestBookingRow {
  id: number;
  timeslot_id: number;
  reference: string;
  status: 'on_hold' | 'confirmed';
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  participants: number;
  channel: 'ota' | 'online' | 'pos';
  partner_id: string | null;
  partner_name: string | null;
  activity_id: number;
  answer_keys: string[];
  checked_in_at: string | null;
  checked_in_participants: number | null;
  note: string | null;
  unit_price_minor: string;
  price_override_minor: number | null;
  price_reason: string | null;
  currency: string;
  price_at_sale: boolean;
}

// The day's timeslots of the account (or of one activity), by time then activity name.
const MANIFEST_SLOTS = `SELECT t.id AS timeslot_id, a.activity_id, a.name AS activity_name, a.time_zone, to_char(t.local_date, 'YYYY-MM-DD') AS date,
                  to_char(t.local_time, 'HH24:MI') AS time, t.starts_at, t.capacity, t.status = 'closed' AS closed
             FROM activities a
             JOIN timeslots t ON t.activity_id = a.id AND t.local_date = $2::date
            WHERE a.account_id = $1 AND ($3::uuid IS NULL OR a.activity_id = $3::uuid)
            ORDER BY t.local_time, a.name, t.id`;

// The live bookings of those timeslots, with which questions their answers answer (answer_keys), not the answers.
const MANIFEST_BOOKINGS = `SELECT b.id, b.timeslot_id, b.activity_id, b.reference, b.status, b.customer->>'FirstName' AS first_name,
                  b.customer->>'LastName' AS last_name, b.customer->>'Email' AS email, b.customer->>'Phone' AS phone, b.participants,
                  b.channel, b.partner_id, p.name AS partner_name, b.answer_keys,
                  to_char(b.checked_in_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS checked_in_at, b.checked_in_participants,
                  b.note, b.unit_price_minor, b.currency, b.price_source = 'sale' AS price_at_sale,
                  b.price_override_minor, b.price_reason
             FROM activities a
             JOIN timeslots t ON t.activity_id = a.id AND t.local_date = $2::date
             JOIN bookings b ON b.timeslot_id = t.id AND b.account_id = a.account_id AND ${LIVE} AND NOT b.test
             LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id
            WHERE a.account_id = $1 AND ($3::uuid IS NULL OR a.activity_id = $3::uuid)`;

// The account's required questions, by activity (the internal id the bookings carry).
const REQUIRED_QUESTIONS = `SELECT q.activity_id, q.id, q.per_participant AS "perParticipant"
             FROM waiver_questions q WHERE q.account_id = $1 AND q.required`;

/**
 * The manifest of a date. The bookings come unordered (sorting 2,000 wide rows cost PostgreSQL more than the rest of
 * the read) and are put in their timeslot's list here, in the order they were made. A timeslot made between the
 * statements is not listed, and neither are its bookings, as if the manifest had been read a moment earlier.
 */
export async function getManifest(db: Db, accountId: string, date: string, activityId: string | null): Promise<Manifest> {
  const values = [accountId, date, activityId];
  const { rows: slotRows } = await db.query<ManifestSlotRow>({ name: 'operator-manifest-slots', text: MANIFEST_SLOTS, values });
  if (slotRows.length === 0) return { Date: date, Timeslots: [], Totals: { Bookings: 0, Participants: 0, CheckedIn: 0 } };
  const [{ rows: bookingRows }, { rows: questionRows }] = await Promise.all([
    db.query<ManifestBookingRow>({ name: 'operator-manifest-bookings', text: MANIFEST_BOOKINGS, values }),
    db.query<RequiredQuestion & { activity_id: number }>({ name: 'operator-required-questions', text: REQUIRED_QUESTIONS, values: [accountId] }),
  ]);
  const requiredBy = new Map<number, RequiredQuestion[]>();
  for (const { activity_id: activityId, ...question } of questionRows) {
    const questions = requiredBy.get(activityId) ?? [];
    questions.push(question);
    requiredBy.set(activityId, questions);
  }

  const totals = { Bookings: 0, Participants: 0, CheckedIn: 0 };
  const bySlot = new Map<number, Manifest['Timeslots'][number]>();
  const timeslots = slotRows.map((row) => {
    const slot: Manifest['Timeslots'][number] = {
      TimeslotID: row.timeslot_id,
      ActivityID: row.activity_id,
      ActivityName: row.activity_name,
      Date: row.date,
      Time: row.time,
      StartsAt: formatInZone(row.starts_at, row.time_zone),
      Capacity: row.capacity,
      Booked: 0,
      Closed: row.closed,
      Bookings: [],
      Totals: { Bookings: 0, Participants: 0, CheckedIn: 0 },
    };
    bySlot.set(row.timeslot_id, slot);
    return slot;
  });
  // In the order they were made.
  bookingRows.sort((a, b) => a.id - b.id);
  for (const row of bookingRows) {
    const slot = bySlot.get(row.timeslot_id);
    if (!slot) continue;
    const participants = row.participants;
    const checkedIn = checkedInCount({ checkedInAt: row.checked_in_at, checkedInParticipants: row.checked_in_participants, participants });
    slot.Bookings.push({
      Reference: row.reference,
      Status: row.status,
      Customer: answeredCustomer({ FirstName: row.first_name, LastName: row.last_name, Email: row.email, Phone: row.phone }),
      Participants: participants,
      Channel: row.channel,
      Partner: row.partner_id ? { ID: row.partner_id, Name: row.partner_name ?? '' } : null,
      WaiversComplete: waiversComplete(requiredBy.get(row.activity_id) ?? [], row.answer_keys, participants),
      CheckedInAt: row.checked_in_at,
      CheckedInParticipants: checkedIn,
      Note: row.note,
      Price: operatorBookingPrice({
        unitPriceMinor: row.unit_price_minor,
        currency: row.currency,
        priceAtSale: row.price_at_sale,
        participants,
        priceOverrideMinor: row.price_override_minor,
        priceReason: row.price_reason,
      }),
    });
    // Booked counts the live bookings' places (a lapsed hold the sweeper has not yet released is not in it).
    slot.Booked += participants;
    for (const sum of [slot.Totals, totals]) {
      sum.Bookings += 1;
      sum.Participants += participants;
      sum.CheckedIn += checkedIn;
    }
  }
  return { Date: date, Timeslots: timeslots, Totals: totals };
}

/** One group of the sales report: a currency, sold or cancelled, a channel, a partner and an activity. */
export interface SalesGroup {
  currency: string;
  cancelled: boolean;
  channel: 'ota' | 'online' | 'pos';
  partnerId: string | null;
  partnerName: string | null;
  activityId: string;
  activityName: string;
  /** How the desk's sales were paid (read only for booking days; null in the timeslot dates' sums). */
  paymentMethod: 'cash' | 'card' | 'other' | null;
  bookings: number;
  participants: number;
  revenueMinor: number;
}

/**
 * The confirmed and cancelled bookings of the dates From to To in few groups, summed from booking_sales_rollup (the
 * sums per timeslot that triggers keep in every booking write's transaction) and booking_sales_daily (past days'
 * sums folded by the booking worker: a day's row instead of its timeslots'), so a year of a million bookings is a few
 * rows per day. Groups whose bookings all moved away are left out, as they would be counting the bookings.
 */
export async function listSalesGroups(db: Db, accountId: string, from: string, to: string): Promise<SalesGroup[]> {
  const { rows } = await db.query<Omit<SalesGroup, 'revenueMinor'> & { revenueMinor: string }>({
    name: 'operator-sales-groups',
    text: `WITH parts AS (
             SELECT currency, cancelled, channel, partner_id, activity_id, bookings, participants, revenue_minor
               FROM booking_sales_daily
              WHERE account_id = $1 AND local_date >= $2::date AND local_date <= $3::date
             UNION ALL
             SELECT currency, cancelled, channel, partner_id, activity_id, bookings, participants, revenue_minor
               FROM booking_sales_rollup
              WHERE account_id = $1 AND local_date >= $2::date AND local_date <= $3::date
           ),
           groups AS (
             SELECT r.currency, r.cancelled, r.channel, r.partner_id, r.activity_id,
                    sum(r.bookings)::int AS bookings, sum(r.participants)::int AS participants, sum(r.revenue_minor) AS revenue
               FROM parts r
              GROUP BY 1, 2, 3, 4, 5
             HAVING sum(r.bookings) > 0
           )
           SELECT g.currency, g.cancelled, g.channel, g.partner_id AS "partnerId", p.name AS "partnerName", a.activity_id AS "activityId",
                  a.name AS "activityName", NULL AS "paymentMethod", g.bookings, g.participants, g.revenue::text AS "revenueMinor"
             FROM groups g
             JOIN activities a ON a.account_id = $1 AND a.id = g.activity_id
             LEFT JOIN partners p ON p.account_id = $1 AND p.id = g.partner_id`,
    values: [accountId, from, to],
  });
  return rows.map((r) => ({ ...r, revenueMinor: Number(r.revenueMinor) }));
}

/**
 * The same groups for the bookings made on the days From to To in the account's time zone (what the desk sold today),
 * whatever their timeslot's date. The rollup is by timeslot date, so these are summed from the bookings themselves
 * over their (account, created_at) index: a range of booking days reads only the bookings made in it.
 */
export async function listSalesGroupsBookedOn(db: Db, accountId: string, from: string, to: string): Promise<SalesGroup[]> {
  const { rows } = await db.query<Omit<SalesGroup, 'revenueMinor'> & { revenueMinor: string }>({
    name: 'operator-sales-groups-booked-on',
    text: `WITH zone AS (SELECT time_zone FROM accounts WHERE id = $1),
           groups AS (
             SELECT b.currency, b.status = 'cancelled' AS cancelled, b.channel, b.partner_id, b.activity_id, b.payment_method,
                    count(*)::int AS bookings, sum(b.participants)::int AS participants, sum(b.total_minor) AS revenue
               FROM bookings b, zone
              WHERE b.account_id = $1 AND NOT b.test AND b.status IN ('confirmed', 'cancelled')
                AND b.created_at >= ($2::date)::timestamp AT TIME ZONE zone.time_zone
                AND b.created_at < ($3::date + 1)::timestamp AT TIME ZONE zone.time_zone
              GROUP BY 1, 2, 3, 4, 5, 6
           )
           SELECT g.currency, g.cancelled, g.channel, g.partner_id AS "partnerId", p.name AS "partnerName", a.activity_id AS "activityId",
                  a.name AS "activityName", g.payment_method AS "paymentMethod", g.bookings, g.participants, g.revenue::text AS "revenueMinor"
             FROM groups g
             JOIN activities a ON a.account_id = $1 AND a.id = g.activity_id
             LEFT JOIN partners p ON p.account_id = $1 AND p.id = g.partner_id`,
    values: [accountId, from, to],
  });
  return rows.map((r) => ({ ...r, revenueMinor: Number(r.revenueMinor) }));
}
