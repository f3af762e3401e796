// A booking as the console's lists show it (the list, the search, one booking): the columns read and their mapping to
// the contract's OperatorBooking.
import type { OperatorBooking } from '@backbone/contracts';
import { answeredCustomer, bookingColumns, toBookingRecord, type BookingRowOf } from './booking-row.js';

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
  'priceOverrideMinor',
  'priceReason',
  'note',
  'checkedInAt',
  'checkedInParticipants',
  'cancellationReason',
  'viaOcto',
  'paymentMethod',
] as const;
export type ListedRow = BookingRowOf<(typeof LISTED)[number]>;

/** The select list of a listed booking b, joined with its timeslot t, activity a and partner p (JOINED). */
export const SELECT_LISTED = `SELECT ${bookingColumns(LISTED)}`;

export function toOperatorBooking(row: ListedRow): OperatorBooking {
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
    Octo: b.viaOcto,
    PaymentMethod: b.paymentMethod,
    CreatedAt: b.createdAt.toISOString(),
    Price: operatorBookingPrice(b),
    Note: b.note,
    CheckedInAt: b.checkedInAt ? b.checkedInAt.toISOString() : null,
    CheckedInParticipants: checkedInCount(b),
    CancellationReason: b.cancellationReason,
  };
}

/** How many of the party are checked in: none before the check-in, all unless fewer were named, never more than the party. */
export function checkedInCount(b: { checkedInAt: unknown; checkedInParticipants: number | null; participants: number }): number {
  if (b.checkedInAt === null) return 0;
  return Math.min(b.checkedInParticipants ?? b.participants, b.participants);
}

/** The price as sold, the party's list total, and the total charged (a price set by hand, with its reason). */
export function operatorBookingPrice(b: {
  unitPriceMinor: number | string;
  currency: string;
  priceAtSale: boolean;
  participants: number;
  priceOverrideMinor: number | string | null;
  priceReason: string | null;
}): OperatorBooking['Price'] {
  const unit = Number(b.unitPriceMinor);
  const list = unit * b.participants;
  return {
    UnitPriceMinor: unit,
    Currency: b.currency,
    TotalMinor: b.priceOverrideMinor === null ? list : Number(b.priceOverrideMinor),
    ListTotalMinor: list,
    Reason: b.priceReason,
    Source: b.priceAtSale ? 'sale' : 'migration',
  };
}
