// The operator's day in SQL: the manifest of a date (every timeslot with its live bookings) in one statement. The
// timeslots come from timeslots_activity_date_idx per activity of the account, the bookings from
// bookings_timeslot_idx per timeslot; nothing scans the account's bookings.
import type { Manifest } from '@backbone/contracts';
import { formatInZone } from '@backbone/domain';
import { bookingPrice } from './operator-bookings.repository.js';
import { LIVE } from './booking-row.js';
import type { Db } from './pool.js';

interface ManifestRow {
  timeslot_id: string;
  activity_id: string;
  activity_name: string;
  time_zone: string;
  date: string;
  time: string;
  starts_at: Date;
  capacity: number;
  booked: number;
  closed: boolean;
  reference: string | null;
  status: 'on_hold' | 'confirmed' | null;
  customer: { FirstName: string; LastName: string; Email: string; Phone?: string | null } | null;
  participants: number | null;
  channel: 'ota' | 'online' | 'pos' | null;
  partner_id: string | null;
  partner_name: string | null;
  waivers_complete: boolean | null;
  checked_in_at: Date | null;
  note: string | null;
  unit_price_minor: string | null;
  currency: string | null;
  price_at_sale: boolean | null;
}

// A required question is answered once, or once per participant when it asks per participant.
const WAIVERS_COMPLETE = `NOT EXISTS (
           SELECT 1 FROM waiver_questions q
            WHERE q.account_id = b.account_id AND q.activity_id = b.activity_id AND q.required
              AND (SELECT count(DISTINCT coalesce(ans->>'Participant', '')) FROM jsonb_array_elements(b.answers) AS ans
                    WHERE ans->>'QuestionID' = q.id::text) < CASE WHEN q.per_participant THEN b.participants ELSE 1 END)`;

export async function getManifest(db: Db, accountId: string, date: string, activityId: string | null): Promise<Manifest> {
  const { rows } = await db.query<ManifestRow>({
    name: 'operator-manifest',
    text: `SELECT t.id AS timeslot_id, a.activity_id, a.name AS activity_name, a.time_zone, to_char(t.local_date, 'YYYY-MM-DD') AS date,
                  to_char(t.local_time, 'HH24:MI') AS time, t.starts_at, t.capacity, t.status = 'closed' AS closed,
                  coalesce(sum(b.participants) OVER (PARTITION BY t.id), 0)::int AS booked,
                  b.reference, b.status, b.customer, b.participants, b.channel, b.partner_id, p.name AS partner_name,
                  CASE WHEN b.id IS NOT NULL THEN ${WAIVERS_COMPLETE} END AS waivers_complete,
                  b.checked_in_at, b.note, b.unit_price_minor, b.currency, b.price_source = 'sale' AS price_at_sale
             FROM activities a
             JOIN timeslots t ON t.activity_id = a.id AND t.local_date = $2::date
             LEFT JOIN bookings b ON b.timeslot_id = t.id AND b.account_id = a.account_id AND ${LIVE}
             LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id
            WHERE a.account_id = $1 AND ($3::uuid IS NULL OR a.activity_id = $3::uuid)
            ORDER BY t.local_time, a.name, t.id, b.id`,
    values: [accountId, date, activityId],
  });
  const timeslots: Manifest['Timeslots'] = [];
  const totals = { Bookings: 0, Participants: 0, CheckedIn: 0 };
  for (const row of rows) {
    let slot = timeslots.at(-1);
    if (!slot || slot.TimeslotID !== Number(row.timeslot_id)) {
      slot = {
        TimeslotID: Number(row.timeslot_id),
        ActivityID: row.activity_id,
        ActivityName: row.activity_name,
        Date: row.date,
        Time: row.time,
        StartsAt: formatInZone(row.starts_at, row.time_zone),
        Capacity: row.capacity,
        Booked: row.booked,
        Closed: row.closed,
        Bookings: [],
        Totals: { Bookings: 0, Participants: 0, CheckedIn: 0 },
      };
      timeslots.push(slot);
    }
    if (row.reference === null) continue;
    const participants = row.participants!;
    const customer = row.customer!;
    slot.Bookings.push({
      Reference: row.reference,
      Status: row.status!,
      Customer: { FirstName: customer.FirstName, LastName: customer.LastName, Email: customer.Email, Phone: customer.Phone ?? null },
      Participants: participants,
      Channel: row.channel!,
      Partner: row.partner_id ? { ID: row.partner_id, Name: row.partner_name ?? '' } : null,
      WaiversComplete: row.waivers_complete!,
      CheckedInAt: row.checked_in_at ? row.checked_in_at.toISOString() : null,
      Note: row.note,
      Price: bookingPrice({ unitPriceMinor: row.unit_price_minor!, currency: row.currency!, priceAtSale: row.price_at_sale!, participants }),
    });
    for (const sum of [slot.Totals, totals]) {
      sum.Bookings += 1;
      sum.Participants += participants;
      if (row.checked_in_at) sum.CheckedIn += participants;
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
  bookings: number;
  participants: number;
  revenueMinor: number;
}

/**
 * The confirmed and cancelled bookings of the dates From to To in few groups, summed from booking_sales_rollup (the
 * sums per timeslot that triggers keep in every booking write's transaction), so a year of a million bookings is a
 * few rows per timeslot. Groups whose bookings all moved away are left out, as they would be counting the bookings.
 */
export async function listSalesGroups(db: Db, accountId: string, from: string, to: string): Promise<SalesGroup[]> {
  const { rows } = await db.query<Omit<SalesGroup, 'revenueMinor'> & { revenueMinor: string }>({
    name: 'operator-sales-groups',
    text: `WITH groups AS (
             SELECT r.currency, r.cancelled, r.channel, r.partner_id, r.activity_id,
                    sum(r.bookings)::int AS bookings, sum(r.participants)::int AS participants, sum(r.revenue_minor) AS revenue
               FROM booking_sales_rollup r
              WHERE r.account_id = $1 AND r.local_date >= $2::date AND r.local_date <= $3::date
              GROUP BY 1, 2, 3, 4, 5
             HAVING sum(r.bookings) > 0
           )
           SELECT g.currency, g.cancelled, g.channel, g.partner_id AS "partnerId", p.name AS "partnerName", a.activity_id AS "activityId",
                  a.name AS "activityName", g.bookings, g.participants, g.revenue::text AS "revenueMinor"
             FROM groups g
             JOIN activities a ON a.account_id = $1 AND a.id = g.activity_id
             LEFT JOIN partners p ON p.account_id = $1 AND p.id = g.partner_id`,
    values: [accountId, from, to],
  });
  return rows.map((r) => ({ ...r, revenueMinor: Number(r.revenueMinor) }));
}
