// What OCTO (/octo) reads and writes beyond the partner API's repositories: the supplier (the account and its contact),
// the products (the shopfront's activities with their start times or opening hours), the availabilities (timeslots,
// lapsed holds counted free as everywhere), and an OCTO booking's own members: the reseller's uuid and unit items.
// Every query is bounded by the account, and a booking's by its partner too.
import { bookedIn, statementIn } from './lapsed-holds.js';
import { BOOKING_FROM, BOOKING_RECORD_MEMBERS, bookingColumns, toBookingRecord, type BookingRecord, type BookingRowOf } from './booking-row.js';
import type { BookingOwner } from './booking-lifecycle.repository.js';
import { tenantIs } from './tenant-check.js';
import type { Db } from './pool.js';
import type { OctoActivity, OctoSlot } from '@backbone/domain';

export interface OctoSupplierRecord {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  website: string | null;
}

export async function findOctoSupplier(db: Db, accountId: string): Promise<OctoSupplierRecord | null> {
  const { rows } = await db.query<OctoSupplierRecord>(`SELECT id, name, email, phone, website FROM accounts WHERE id = $1`, [accountId]);
  return rows[0] ?? null;
}

export type OctoActivityRecord = OctoActivity;

/**
 * The account's active activities offered in the shopfront (or one of them, by a UUID the caller has checked), ordered
 * by name; with `anyShopfront`, a booking's activity is found even after it left the shopfront. With `startTimes:
 * false` the start times are not gathered (left empty): that reads a year of the activity's timeslots, which an
 * availability answer, showing no product, does not need.
 */
export async function listOctoActivities(
  db: Db,
  accountId: string,
  options: { activityId?: string; anyShopfront?: boolean; startTimes?: boolean } = {},
): Promise<OctoActivityRecord[]> {
  const { rows } = await db.query<OctoActivityRecord>({
    name: 'octo-activities',
    text: `SELECT a.id::int AS "internalId", a.activity_id AS "activityId", a.name, a.time_zone AS "timeZone",
                  a.duration_minutes AS "durationMinutes", a.price_minor::float8 AS "priceMinor", a.currency,
                  a.max_participants AS "maxParticipants", a.cancellation_cutoff_minutes AS "cancellationCutoffMinutes",
                  to_char(a.opening_time, 'HH24:MI') AS "openingTime", to_char(a.closing_time, 'HH24:MI') AS "closingTime",
                  CASE WHEN $4 THEN
                    coalesce((SELECT array_agg(DISTINCT to_char(t.local_time, 'HH24:MI') ORDER BY to_char(t.local_time, 'HH24:MI'))
                                FROM timeslots t
                               WHERE t.activity_id = a.id AND t.starts_at > now() AND t.starts_at < now() + interval '366 days'),
                             '{}')
                  ELSE '{}' END AS "startTimes"
             FROM activities a
            WHERE a.account_id = $1 AND a.active AND ($3 OR a.in_shopfront) AND ($2::uuid IS NULL OR a.activity_id = $2::uuid)
            ORDER BY a.name, a.id`,
    values: [accountId, options.activityId ?? null, options.anyShopfront ?? false, options.startTimes ?? true],
  });
  return rows;
}

export type OctoSlotRecord = OctoSlot;

/** A slot's columns in the caller's mode (a test key sees the test places). */
const slotColumns = (test: boolean) => `to_char(t.local_date, 'YYYY-MM-DD') AS "localDate", to_char(t.local_time, 'HH24:MI') AS "localTime",
                      t.starts_at AS "startsAt", t.ends_at AS "endsAt", t.capacity, ${bookedIn(test)} AS booked,
                      t.status = 'open' AS open, t.starts_at <= now() AS started`;

/** The activity's timeslots from one local date to another, in order. */
export async function listOctoSlots(db: Db, activityInternalId: number, from: string, to: string, test = false): Promise<OctoSlotRecord[]> {
  const { rows } = await db.query<OctoSlotRecord>({
    name: statementIn('octo-slots-range', test),
    text: `SELECT ${slotColumns(test)} FROM timeslots t
            WHERE t.activity_id = $1 AND t.local_date BETWEEN $2 AND $3
            ORDER BY t.local_date, t.local_time`,
    values: [activityInternalId, from, to],
  });
  return rows;
}

/** The activity's timeslots at these local starts ('YYYY-MM-DD', 'HH:MM' pairs), in order. */
export async function findOctoSlots(
  db: Db,
  activityInternalId: number,
  starts: readonly { date: string; time: string }[],
  test = false,
): Promise<OctoSlotRecord[]> {
  if (starts.length === 0) return [];
  const { rows } = await db.query<OctoSlotRecord>({
    name: statementIn('octo-slots-at', test),
    text: `SELECT ${slotColumns(test)} FROM timeslots t
             JOIN unnest($2::date[], $3::time[]) AS s(d, tm) ON t.local_date = s.d AND t.local_time = s.tm
            WHERE t.activity_id = $1
            ORDER BY t.local_date, t.local_time`,
    values: [activityInternalId, starts.map((s) => s.date), starts.map((s) => s.time)],
  });
  return rows;
}

/** An OCTO booking's unit item as stored: the participant's uuid and unit. */
export interface StoredOctoUnitItem {
  uuid: string;
  unitId: string;
}

export type OctoBookingRecord = BookingRecord & {
  octoUuid: string;
  octoUnitItems: StoredOctoUnitItem[];
  /** The notes of OCTO's contact (apart from the booking's notes). */
  octoContactNotes: string | null;
  endsAtInstant: Date;
  /** When it was confirmed (its creation when it was made confirmed); null while it was never confirmed. */
  confirmedAt: Date | null;
};

const OCTO_BOOKING_COLUMNS = `${bookingColumns(BOOKING_RECORD_MEMBERS)}, b.octo_uuid AS "octoUuid", b.octo_unit_items AS "octoUnitItems",
  b.octo_contact_notes AS "octoContactNotes", t.ends_at AS "endsAtInstant",
  (SELECT max(h.at) FROM booking_history h WHERE h.booking_id = b.id AND h.action = 'confirmed') AS "confirmedAt"`;

type OctoBookingRow = BookingRowOf<(typeof BOOKING_RECORD_MEMBERS)[number]> & {
  octoUuid: string;
  octoUnitItems: StoredOctoUnitItem[] | null;
  octoContactNotes: string | null;
  endsAtInstant: Date;
  confirmedAt: Date | null;
};

function toOctoBookingRecord(row: OctoBookingRow): OctoBookingRecord {
  return { ...toBookingRecord(row), octoUnitItems: row.octoUnitItems ?? [] };
}

/** The partner's OCTO booking with this uuid (any case), with its status as every answer shows it. */
export async function findOctoBooking(db: Db, owner: BookingOwner & { partnerId: string }, uuid: string): Promise<OctoBookingRecord | null> {
  const { rows } = await db.query<OctoBookingRow>({
    name: 'octo-booking-find',
    text: `SELECT ${OCTO_BOOKING_COLUMNS} FROM ${BOOKING_FROM}
            WHERE b.partner_id = $2 AND b.octo_uuid = $3::uuid AND b.test = $4 AND ${tenantIs('b.account_id', '$1')}`,
    values: [owner.accountId, owner.partnerId, uuid, owner.test ?? false],
  });
  return rows[0] ? toOctoBookingRecord(rows[0]) : null;
}

export interface OctoBookingFilter {
  resellerReference?: string | undefined;
  supplierReference?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  activityId?: string | undefined;
}

/** The partner's OCTO bookings that match every filter given, by start then creation; at most `limit`. */
export async function findOctoBookings(
  db: Db,
  owner: BookingOwner & { partnerId: string },
  filter: OctoBookingFilter,
  limit: number,
): Promise<OctoBookingRecord[]> {
  const { rows } = await db.query<OctoBookingRow>({
    name: 'octo-booking-list',
    text: `SELECT ${OCTO_BOOKING_COLUMNS} FROM ${BOOKING_FROM}
            WHERE b.partner_id = $2 AND b.octo_uuid IS NOT NULL AND b.test = $9 AND ${tenantIs('b.account_id', '$1')}
              AND ($3::text IS NULL OR b.payment_reference = $3)
              AND ($4::text IS NULL OR b.reference = upper($4))
              AND ($5::date IS NULL OR t.local_date >= $5) AND ($6::date IS NULL OR t.local_date <= $6)
              AND ($7::text IS NULL OR a.activity_id::text = $7)
            ORDER BY t.starts_at, b.created_at, b.id
            LIMIT $8`,
    values: [
      owner.accountId,
      owner.partnerId,
      filter.resellerReference ?? null,
      filter.supplierReference ?? null,
      filter.from ?? null,
      filter.to ?? null,
      filter.activityId ?? null,
      limit,
      owner.test ?? false,
    ],
  });
  return rows.map(toOctoBookingRecord);
}

/**
 * Gives a booking just made its OCTO identity, in the reservation's transaction. The unique index on (partner, uuid)
 * is the guarantee that one reseller's uuid names one booking: a second reservation with it fails here and rolls back.
 */
export async function setOctoIdentity(
  db: Db,
  accountId: string,
  reference: string,
  uuid: string,
  unitItems: readonly StoredOctoUnitItem[],
  notes: string | null,
  contactNotes: string | null,
): Promise<void> {
  await db.query({
    name: 'octo-booking-identity',
    text: `UPDATE bookings SET octo_uuid = $3, octo_unit_items = $4, note = $5, octo_contact_notes = $6
            WHERE reference = $2 AND ${tenantIs('account_id', '$1')}`,
    values: [accountId, reference, uuid, JSON.stringify(unitItems), notes, contactNotes],
  });
}

/** Replaces the notes of an OCTO booking's contact, in the transaction of the confirm or change that brought them. */
export async function setOctoContactNotes(db: Db, accountId: string, reference: string, notes: string | null): Promise<void> {
  await db.query({
    name: 'octo-booking-contact-notes',
    text: `UPDATE bookings SET octo_contact_notes = $3 WHERE reference = $2 AND ${tenantIs('account_id', '$1')}`,
    values: [accountId, reference, notes],
  });
}

/** Replaces an OCTO booking's unit items (row locked by the caller, whose change of the party size goes with it). */
export async function setOctoUnitItems(db: Db, accountId: string, bookingId: number, unitItems: readonly StoredOctoUnitItem[]): Promise<void> {
  await db.query({
    name: 'octo-booking-unit-items',
    text: `UPDATE bookings SET octo_unit_items = $3 WHERE id = $2 AND ${tenantIs('account_id', '$1')}`,
    values: [accountId, bookingId, JSON.stringify(unitItems)],
  });
}
