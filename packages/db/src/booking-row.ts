// A booking as the reads see it, in one place: the one row type (every member a read may select, named as the record
// names it), the SQL of each member, and the one mapper from a row to the record. Each read selects the members it
// needs through bookingColumns: the lifecycle the whole booking under its stored status, the console and the admin CLI
// what they list, the sync feed a lean row whose instants PostgreSQL writes as ISO text (a page is 500 rows, and
// parsing five timestamps of each only to print them again was the largest part of the partner API's CPU per page).
import { formatInZone, type BookingStatus } from '@backbone/domain';
import { isoInstantSql } from './iso-instant.js';

/** The customer as the APIs answer it: what the booking was given (a hold may have no names yet), Phone always. */
export interface AnsweredCustomer {
  FirstName?: string;
  LastName?: string;
  Email?: string;
  Phone: string | null;
}

/** From the stored customer, or its members selected as text (null when absent). */
export function answeredCustomer(stored: { FirstName?: unknown; LastName?: unknown; Email?: unknown; Phone?: unknown }): AnsweredCustomer {
  const customer: AnsweredCustomer = { Phone: typeof stored.Phone === 'string' ? stored.Phone : null };
  if (typeof stored.FirstName === 'string') customer.FirstName = stored.FirstName;
  if (typeof stored.LastName === 'string') customer.LastName = stored.LastName;
  if (typeof stored.Email === 'string') customer.Email = stored.Email;
  return customer;
}

/** Every member of a booking a read may select: the booking with its timeslot and activity, and its partner. */
export interface BookingRow {
  id: number;
  accountId: string;
  partnerId: string | null;
  /** The partner's name (reads that join partners p: PARTNER_JOIN). */
  partnerName: string | null;
  reference: string;
  status: BookingStatus;
  channel: 'ota' | 'online' | 'pos';
  /** The activity's UUID. */
  activityId: string;
  activityInternalId: number;
  activityName: string;
  timeslotId: number;
  date: string;
  time: string;
  startsAtInstant: Date;
  /** The activity's zone, in which `startsAt` is written. */
  timeZone: string;
  participants: number;
  customer: Record<string, unknown>;
  paymentReference: string | null;
  answers: unknown[];
  expiresAt: Date | null;
  cancelledAt: Date | null;
  cancellationReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  cancellationCutoffMinutes: number;
  /** The activity's per-booking maximum of participants. */
  maxParticipants: number;
  /** The price as sold (minor units per participant), its currency, and whether it was recorded at the sale. */
  unitPriceMinor: number;
  currency: string;
  priceAtSale: boolean;
  /** The total charged when set by hand at the desk (a discount or an owner's override), and why; null otherwise. */
  priceOverrideMinor: number | null;
  priceReason: string | null;
  note: string | null;
  checkedInAt: Date | null;
  /** How many of the party were checked in; the whole party when null (and checkedInAt is set). */
  checkedInParticipants: number | null;
  /** The console user who sold it (a point-of-sale sale made in a session). */
  createdByUserId: string | null;
  /** A sandbox booking (made with a test key): it holds test places, and only test keys see it. */
  test: boolean;
  /** How a point-of-sale sale was paid (cash, card, other); null otherwise. */
  paymentMethod: 'cash' | 'card' | 'other' | null;
  /** Made through the partner API's OCTO interface (it carries the reseller's OCTO uuid). */
  viaOcto: boolean;
  /** The database's clock when the booking was read: transitions are judged against it, not the app's. */
  now: Date;
}

export type BookingMember = keyof BookingRow;

/** The bookings b with their timeslot t and activity a; PARTNER_JOIN adds the partner p. */
export const BOOKING_FROM = `bookings b JOIN timeslots t ON t.id = b.timeslot_id JOIN activities a ON a.account_id = b.account_id AND a.id = b.activity_id`;
export const PARTNER_JOIN = `LEFT JOIN partners p ON p.account_id = b.account_id AND p.id = b.partner_id`;

/** The status as every answer shows it: a hold whose expiry has passed is expired, whether or not the sweeper marked it. */
export const SHOWN_STATUS = `CASE WHEN b.status = 'on_hold' AND b.expires_at <= now() THEN 'expired' ELSE b.status END`;

/** A booking that holds its places: confirmed, or a hold whose expiry has not passed. */
export const LIVE = `(b.status = 'confirmed' OR (b.status = 'on_hold' AND b.expires_at > now()))`;

const MEMBER_SQL: Record<BookingMember, string> = {
  id: 'b.id',
  accountId: 'b.account_id',
  partnerId: 'b.partner_id',
  partnerName: 'p.name',
  reference: 'b.reference',
  status: 'b.status',
  channel: 'b.channel',
  activityId: 'a.activity_id',
  activityInternalId: 'b.activity_id',
  activityName: 'a.name',
  timeslotId: 'b.timeslot_id',
  date: `to_char(t.local_date, 'YYYY-MM-DD')`,
  time: `to_char(t.local_time, 'HH24:MI')`,
  startsAtInstant: 't.starts_at',
  timeZone: 'a.time_zone',
  participants: 'b.participants',
  customer: 'b.customer',
  paymentReference: 'b.payment_reference',
  answers: 'b.answers',
  expiresAt: 'b.expires_at',
  cancelledAt: 'b.cancelled_at',
  cancellationReason: 'b.cancellation_reason',
  createdAt: 'b.created_at',
  updatedAt: 'b.updated_at',
  cancellationCutoffMinutes: 'a.cancellation_cutoff_minutes',
  maxParticipants: 'a.max_participants',
  unitPriceMinor: 'b.unit_price_minor',
  currency: 'b.currency',
  priceAtSale: `b.price_source = 'sale'`,
  priceOverrideMinor: 'b.price_override_minor',
  priceReason: 'b.price_reason',
  note: 'b.note',
  checkedInAt: 'b.checked_in_at',
  checkedInParticipants: 'b.checked_in_participants',
  createdByUserId: 'b.created_by_user_id',
  test: 'b.test',
  viaOcto: 'b.octo_uuid IS NOT NULL',
  paymentMethod: 'b.payment_method',
  now: 'now()',
};

type Instant = 'startsAtInstant' | 'expiresAt' | 'cancelledAt' | 'createdAt' | 'updatedAt' | 'checkedInAt' | 'now';
const INSTANTS: ReadonlySet<BookingMember> = new Set<Instant>(['startsAtInstant', 'expiresAt', 'cancelledAt', 'createdAt', 'updatedAt', 'checkedInAt', 'now']);

export interface BookingSelection {
  /** 'shown' (SHOWN_STATUS, the default) or 'stored', as written, for the transitions to judge. */
  status?: 'shown' | 'stored';
  /** 'date' (the default), or 'text': ISO 8601 in UTC as Date.prototype.toISOString writes it, written by PostgreSQL. */
  instants?: 'date' | 'text';
}

/** A row of the members `M` as bookingColumns selects them: with `instants: 'text'` (I) its instants are ISO text. */
export type BookingRowOf<M extends BookingMember, I extends 'date' | 'text' = 'date'> = {
  [K in M]: I extends 'text' ? (K extends Instant ? (null extends BookingRow[K] ? string | null : string) : BookingRow[K]) : BookingRow[K];
};

/** The select list of `members`, each under its member's name (from BOOKING_FROM, and PARTNER_JOIN for partnerName). */
export function bookingColumns(members: readonly BookingMember[], selection: BookingSelection = {}): string {
  return members
    .map((member) => {
      let sql = member === 'status' && selection.status !== 'stored' ? SHOWN_STATUS : MEMBER_SQL[member];
      if (selection.instants === 'text' && INSTANTS.has(member)) sql = isoInstantSql(sql);
      return `${sql} AS "${member}"`;
    })
    .join(', ');
}

/** The one mapper: a row as selected, with the start written in the activity's zone (ISO 8601 with its offset). */
export function toBookingRecord<R extends Pick<BookingRow, 'startsAtInstant' | 'timeZone'>>(row: R): R & { startsAt: string } {
  return { ...row, startsAt: formatInZone(row.startsAtInstant, row.timeZone) };
}

/** Everything the lifecycle reads of a booking (findBooking): every member of the booking itself, its status as stored. */
export const BOOKING_RECORD_MEMBERS = [
  'id',
  'accountId',
  'partnerId',
  'reference',
  'status',
  'channel',
  'activityId',
  'activityInternalId',
  'activityName',
  'timeslotId',
  'date',
  'time',
  'startsAtInstant',
  'timeZone',
  'participants',
  'customer',
  'paymentReference',
  'answers',
  'expiresAt',
  'cancelledAt',
  'cancellationReason',
  'createdAt',
  'updatedAt',
  'cancellationCutoffMinutes',
  'maxParticipants',
  'unitPriceMinor',
  'currency',
  'priceAtSale',
  'priceOverrideMinor',
  'priceReason',
  'note',
  'checkedInAt',
  'checkedInParticipants',
  'createdByUserId',
  'test',
  'now',
] as const satisfies readonly BookingMember[];

/** One booking with everything its transitions and its answer need. */
export type BookingRecord = BookingRowOf<(typeof BOOKING_RECORD_MEMBERS)[number]> & { startsAt: string };
