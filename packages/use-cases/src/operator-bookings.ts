// The operator's changes to a booking (the console's booking panel and manifest): cancel, move, resize or edit, check
// in. Cancel and the changes are the lifecycle's and changeBooking's, with the operator's rules (no partner cutoff);
// each answers the booking as the console shows it, read after the commit.
import type {
  BookingDetail,
  BookingHistory,
  HistoryItem,
  OperatorBookingChange,
  OperatorCancelRequest,
  OperatorRole,
  RescheduleRequest,
} from '@backbone/contracts';
import { findBookingOrigin, findOperatorBooking, inTransaction, listBookingHistory, writeCheckIn, type Pool } from '@backbone/db';
import { arrivedOf, decideCheckIn, notFound, type BookingActor } from '@backbone/domain';
import { auditBookingPrice } from './booking-price-audit.js';
import { cancelBooking, lockedBooking, stateOf, type BookingRef } from './booking-lifecycle.js';
import { changeBooking } from './change-booking.js';
import type { IdempotencyRequest, Replayable } from './idempotency.js';

/** A booking of the account, as the operator sees it (every partner's). */
export interface OperatorBookingRef {
  accountId: string;
  reference: string;
}

const asOperator = (ref: OperatorBookingRef): BookingRef => ({ owner: { accountId: ref.accountId, partnerId: null }, reference: ref.reference });

async function shown(pool: Pool, ref: OperatorBookingRef): Promise<BookingDetail> {
  const booking = await findOperatorBooking(pool, ref.accountId, ref.reference.toUpperCase());
  if (!booking) throw notFound('Booking');
  return booking;
}

export async function cancelOperatorBooking(
  deps: { pool: Pool },
  ref: OperatorBookingRef,
  request: OperatorCancelRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<BookingDetail>> {
  const { replayed } = await cancelBooking(deps, asOperator(ref), request, actor, idempotency);
  return { value: await shown(deps.pool, ref), replayed };
}

export async function rescheduleOperatorBooking(
  deps: { pool: Pool },
  ref: OperatorBookingRef,
  request: RescheduleRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
): Promise<Replayable<BookingDetail>> {
  const move = { date: request.Date, time: request.Time, ...(request.ActivityID !== undefined ? { activityId: request.ActivityID } : {}) };
  const { replayed } = await changeBooking(deps, asOperator(ref), { move }, actor, idempotency);
  return { value: await shown(deps.pool, ref), replayed };
}

export async function changeOperatorBooking(
  deps: { pool: Pool },
  ref: OperatorBookingRef,
  request: OperatorBookingChange,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
  /** The user's role (its grants decide a price set by hand); an admin key acts as an owner. */
  role: OperatorRole = 'owner',
): Promise<Replayable<BookingDetail>> {
  const change = {
    ...(request.Participants !== undefined ? { participants: request.Participants } : {}),
    ...(request.Customer !== undefined ? { customer: request.Customer } : {}),
    ...(request.Answers !== undefined ? { answers: request.Answers } : {}),
    // An emptied note is no note.
    ...(request.Note !== undefined ? { note: request.Note === '' ? null : request.Note } : {}),
    ...(request.PriceOverride !== undefined ? { price: { override: request.PriceOverride, role } } : {}),
  };
  const { replayed } = await changeBooking(deps, asOperator(ref), change, actor, idempotency, {
    afterChange: async (tx, before, after, changed) => {
      if (!changed.includes('Price') || actor.kind !== 'operator') return;
      const charged = (b: typeof before) => ({ totalMinor: b.priceOverrideMinor ?? b.unitPriceMinor * b.participants, reason: b.priceReason });
      const booking = { Reference: after.reference, Customer: after.customer as { FirstName?: string; LastName?: string } };
      await auditBookingPrice(tx, ref.accountId, actor, booking, { from: charged(before), to: charged(after), currency: after.currency });
    },
  });
  return { value: await shown(deps.pool, ref), replayed };
}

/**
 * Checks a live booking in: the whole party, or `participants` of it. A repeat keeps the first time and records only a
 * change of the count (another of the party arrives later).
 */
export function checkInOperatorBooking(deps: { pool: Pool }, ref: OperatorBookingRef, actor: BookingActor, participants?: number): Promise<BookingDetail> {
  return recordCheckIn(deps, ref, true, actor, participants);
}

/** Undoes a booking's check-in (in any status: a party checked in and then cancelled can still be corrected). */
export function undoOperatorCheckIn(deps: { pool: Pool }, ref: OperatorBookingRef, actor: BookingActor): Promise<BookingDetail> {
  return recordCheckIn(deps, ref, false, actor);
}

async function recordCheckIn(deps: { pool: Pool }, ref: OperatorBookingRef, arrived: boolean, actor: BookingActor, named?: number): Promise<BookingDetail> {
  await inTransaction(deps.pool, async (tx) => {
    const booking = await lockedBooking(tx, asOperator(ref));
    const count = arrived ? arrivedOf(named, booking.participants) : null;
    const recount = arrived && booking.checkedInAt !== null && count !== booking.checkedInParticipants;
    if (decideCheckIn(stateOf(booking), booking.checkedInAt, booking.now, arrived, recount) === 'change') {
      await writeCheckIn(tx, booking, arrived, actor, count);
    }
  });
  return shown(deps.pool, ref);
}

const RECORDED_ACTIONS: Record<string, HistoryItem['Action']> = {
  confirmed: 'confirmed',
  rescheduled: 'rescheduled',
  edited: 'edited',
  extended: 'edited',
  repriced: 'repriced',
  checked_in: 'checked-in',
  check_in_undone: 'check-in-undone',
  cancelled: 'cancelled',
};

function actorOf(who: {
  kind: 'partner' | 'operator' | 'customer' | 'system';
  partnerId: string | null;
  partnerName: string | null;
  apiKeyId: string | null;
  userId: string | null;
  userEmail: string | null;
}): HistoryItem['Actor'] {
  const present = <K extends string>(key: K, value: string | null) => (value === null ? {} : ({ [key]: value } as Record<K, string>));
  if (who.kind === 'system') return { Kind: 'system' };
  if (who.kind === 'customer') return { Kind: 'customer' };
  if (who.kind === 'partner')
    return { Kind: 'partner', ...present('PartnerID', who.partnerId), ...present('PartnerName', who.partnerName), ...present('KeyID', who.apiKeyId) };
  return { Kind: 'user', ...present('UserID', who.userId), ...present('UserEmail', who.userEmail), ...present('KeyID', who.apiKeyId) };
}

/**
 * A booking's history, oldest first: its creation (held, when it began as a hold: it is or was on hold, or a confirm
 * followed) and a lapsed hold's expiry come from the booking; every other change from its recorded rows.
 */
export async function listOperatorBookingHistory(deps: { pool: Pool }, ref: OperatorBookingRef): Promise<BookingHistory> {
  const origin = await findBookingOrigin(deps.pool, ref.accountId, ref.reference.toUpperCase());
  if (!origin) throw notFound('Booking');
  const recorded = await listBookingHistory(deps.pool, ref.accountId, origin.id);
  const held = origin.status === 'on_hold' || origin.status === 'expired' || recorded.some((row) => row.action === 'confirmed');
  // A booking of the booking page (channel online, no partner) was made by its customer; the admin CLI's online rows too
  // stand for a customer's order.
  const creator = origin.partnerId ? 'partner' : origin.channel === 'online' ? 'customer' : 'operator';
  const items: HistoryItem[] = [
    {
      At: origin.createdAt.toISOString(),
      Action: held ? 'held' : 'created',
      Actor: actorOf({ kind: creator, ...origin }),
      Reason: null,
      Changes: null,
    },
    ...recorded.map((row): HistoryItem => ({
      At: row.at.toISOString(),
      Action: RECORDED_ACTIONS[row.action] ?? 'edited',
      Actor: actorOf({ kind: row.actorKind, ...row }),
      Reason: row.reason,
      Changes: Object.keys(row.changes).length > 0 ? row.changes : null,
    })),
  ];
  if (origin.status === 'expired' && origin.expiresAt) {
    items.push({ At: origin.expiresAt.toISOString(), Action: 'expired', Actor: { Kind: 'system' }, Reason: null, Changes: null });
  }
  return { Items: items };
}
