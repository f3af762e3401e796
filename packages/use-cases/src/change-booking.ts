// Change a live booking: move it to another timeslot (of its activity, or of another one), change the party size,
// the customer, the waiver answers, the operator's note or the partner's payment reference. One transaction under the booking's row lock: the places
// leave the old timeslot and take the new one (or the party grows or shrinks in place) with the same rule as a create,
// so the booking fits or nothing changes; the booking, its booking.updated event and its history row commit with the
// places. Partners (the partner API, OCTO) may change until the activity's cancellation cutoff, the operator at any
// time. A request that changes nothing answers the booking as it is, and records nothing.
import { randomUUID } from 'node:crypto';
import type { BookingAnswer, BookingChangeMember, BookingDetails, BookingUpdatedPayload } from '@backbone/contracts';
import {
  findActivityForChange,
  findBooking,
  findTimeslotId,
  inTransaction,
  lockTimeslotsForChange,
  releaseLapsedHolds,
  writeBookingChange,
  type BookingRecord,
  type Db,
  type Pool,
} from '@backbone/db';
import {
  assertChangeable,
  notFound,
  partySizeError,
  placesToTake,
  timeslotUnavailable,
  ValidationError,
  type BookingActor,
  type CustomerDetails,
} from '@backbone/domain';
import { actingAs, checkedAnswers, keepAnswerFiles, lockedBooking, stateOf, type BookingRef } from './booking-lifecycle.js';
import { toBookingDetails } from './booking-details.js';
import { awaitCommittedDurable, runIdempotently, type IdempotencyRequest, type Replayable } from './idempotency.js';

export interface BookingChangeRequest {
  /** Move to this timeslot: of the booking's activity, or of `activityId` when given. */
  move?: { activityId?: string; date: string; time: string };
  participants?: number;
  /** The members given replace the stored ones; the others stay. */
  customer?: CustomerDetails;
  /** Replace the waiver answers (checked against the activity's questions and the new party size). */
  answers?: readonly BookingAnswer[];
  /** The operator's note; null removes it. */
  note?: string | null;
  /** The partner's payment reference (OCTO's resellerReference); null removes it. */
  paymentReference?: string | null;
  /** Why (recorded in the booking's history). */
  reason?: string | null;
}

export interface BookingChangeOptions {
  /** Writes of the caller's own (OCTO's unit items) that commit or roll back with the change, under its row lock. */
  withinChange?: (tx: Db, booking: BookingRecord) => Promise<void>;
}

export async function changeBooking(
  uow: { pool: Pool },
  ref: BookingRef,
  request: BookingChangeRequest,
  actor: BookingActor,
  idempotency: IdempotencyRequest | null = null,
  options: BookingChangeOptions = {},
): Promise<Replayable<BookingDetails>> {
  let releasedLapsedHolds = false;
  const result = await runIdempotently(uow.pool, ref.owner.accountId, idempotency, (db) =>
    inTransaction(db, async (tx) => {
      const change = await applyBookingChange(tx, ref, request, actor, options);
      releasedLapsedHolds = change.releasedLapsedHolds;
      return change.booking;
    }),
  );
  // Releasing lapsed holds commits without waiting for the disk (see releaseLapsedHolds); this answer must not.
  if (releasedLapsedHolds) await awaitCommittedDurable(uow.pool);
  return result;
}

/**
 * The change within the caller's transaction (changeBooking's, or OCTO's confirm, which changes and confirms in one).
 * When it released lapsed holds the transaction commits without waiting for the disk: the caller awaits durability
 * before it answers.
 */
export async function applyBookingChange(
  tx: Db,
  ref: BookingRef,
  request: BookingChangeRequest,
  actor: BookingActor,
  options: BookingChangeOptions = {},
): Promise<{ booking: BookingDetails; releasedLapsedHolds: boolean }> {
  let releasedLapsedHolds = false;
  const booking = await lockedBooking(tx, ref);
  assertChangeable(stateOf(booking), booking.now, actingAs(actor));
  await options.withinChange?.(tx, booking);

  const activity = await targetActivity(tx, booking, request, actor);
  const participants = request.participants ?? booking.participants;
  const tooLarge = partySizeError(participants, activity.maxParticipants);
  if (tooLarge) throw new ValidationError([tooLarge]);
  const timeslotId = request.move ? await targetTimeslot(tx, booking, activity.id, request.move, actor) : booking.timeslotId;
  const answers = await changedAnswers(tx, booking, activity, participants, request.answers);
  const customer = request.customer ? { ...booking.customer, ...definedMembers(request.customer) } : booking.customer;
  const note = request.note === undefined ? booking.note : request.note;
  const paymentReference = request.paymentReference === undefined ? booking.paymentReference : request.paymentReference;

  const moved = timeslotId !== booking.timeslotId;
  const date = request.move?.date ?? booking.date;
  const time = request.move?.time ?? booking.time;
  const changed = changedMembers(booking, { activityId: activity.activityId, date, time, participants, customer, answers, note, paymentReference });
  if (changed.length === 0) return { booking: toBookingDetails(booking), releasedLapsedHolds };

  const slots = await lockTimeslotsForChange(tx, booking.accountId, moved ? [booking.timeslotId, timeslotId] : [timeslotId]);
  const party = { fromTimeslotId: booking.timeslotId, participantsBefore: booking.participants, participantsAfter: participants };
  let target = slots.get(timeslotId)!;
  if (placesToTake(party, target).verdict === 'release-lapsed') {
    // Places of holds that lapsed are free from that instant: released now, as a create would.
    await releaseLapsedHolds(tx, { timeslotId, limit: 1000 });
    releasedLapsedHolds = true;
    target = (await lockTimeslotsForChange(tx, booking.accountId, [timeslotId])).get(timeslotId)!;
    if (placesToTake(party, target).verdict !== 'fits') throw new Error('lapsed holds released, yet the timeslot still counts them');
  }
  const places = new Map<number, number>(
    moved
      ? [
          [booking.timeslotId, -booking.participants],
          [timeslotId, participants],
        ]
      : [[timeslotId, participants - booking.participants]],
  );

  const history: Record<string, { From: unknown; To: unknown }> = {};
  const previous = { ActivityID: booking.activityId, Date: booking.date, Time: booking.time, Participants: booking.participants };
  const after = { ActivityID: activity.activityId, Date: date, Time: time, Participants: participants };
  for (const member of changed) {
    if (member === 'Customer') history.Customer = { From: booking.customer, To: customer };
    else if (member === 'Answers') history.Answers = { From: booking.answers.length, To: answers.length };
    else if (member === 'Note') history.Note = { From: booking.note, To: note };
    else if (member === 'PaymentReference') history.PaymentReference = { From: booking.paymentReference, To: paymentReference };
    else history[member] = { From: previous[member], To: after[member] };
  }
  const payload: Omit<BookingUpdatedPayload, 'OccurredAt'> = {
    EventID: randomUUID(),
    AccountID: booking.accountId,
    ...(booking.partnerId ? { PartnerID: booking.partnerId } : {}),
    Reference: booking.reference,
    Status: booking.status === 'on_hold' ? 'on_hold' : 'confirmed',
    UpdatedAt: booking.now.toISOString(),
    ...after,
    Changed: changed,
    Previous: previous,
  };
  await writeBookingChange(
    tx,
    booking,
    { activityInternalId: activity.id, timeslotId, participants, customer, answers, note, paymentReference, places },
    { eventId: payload.EventID, payload },
    { action: moved || activity.id !== booking.activityInternalId ? 'rescheduled' : 'edited', actor, reason: request.reason ?? null, changes: history },
  );
  if (request.answers) await keepAnswerFiles(tx, booking, request.answers);
  const changedBooking = await findBooking(tx, ref.owner, booking.reference);
  return { booking: toBookingDetails(changedBooking!), releasedLapsedHolds };
}

async function targetActivity(db: Parameters<typeof findActivityForChange>[0], booking: BookingRecord, request: BookingChangeRequest, actor: BookingActor) {
  const own = { id: booking.activityInternalId, activityId: booking.activityId, maxParticipants: booking.maxParticipants };
  const wanted = request.move?.activityId?.toLowerCase();
  if (!wanted || wanted === booking.activityId) return own;
  const found = await findActivityForChange(db, booking.accountId, wanted, { anyShopfront: actor.kind !== 'partner' });
  if (!found) throw new ValidationError([{ field: 'ActivityID', message: 'ActivityID is not an activity offered by this account.' }]);
  return found;
}

async function targetTimeslot(
  db: Parameters<typeof findTimeslotId>[0],
  booking: BookingRecord,
  activityInternalId: number,
  move: { date: string; time: string },
  actor: BookingActor,
): Promise<number> {
  const id = await findTimeslotId(db, booking.accountId, activityInternalId, move.date, move.time);
  // A partner is told to offer another timeslot, as a create tells it; the operator picked a slot that does not exist.
  if (id === null && actor.kind !== 'partner') throw notFound(`Timeslot on ${move.date} at ${move.time}`);
  if (id === null) throw timeslotUnavailable(move, 'missing');
  return id;
}

/**
 * The answers after the change: the ones sent, checked against the target activity's questions and party; otherwise
 * the stored ones, unless the booking moves to another activity, whose questions they do not answer.
 */
async function changedAnswers(
  db: Db,
  booking: BookingRecord,
  activity: { activityId: string },
  participants: number,
  sent: readonly BookingAnswer[] | undefined,
): Promise<unknown[]> {
  if (sent) return checkedAnswers(db, booking, activity.activityId, participants, sent);
  return activity.activityId === booking.activityId ? booking.answers : [];
}

function definedMembers(customer: CustomerDetails): Record<string, unknown> {
  return Object.fromEntries(Object.entries(customer).filter(([, value]) => value !== undefined));
}

function changedMembers(
  booking: BookingRecord,
  after: {
    activityId: string;
    date: string;
    time: string;
    participants: number;
    customer: Record<string, unknown>;
    answers: unknown[];
    note: string | null;
    paymentReference: string | null;
  },
): BookingChangeMember[] {
  const changed: BookingChangeMember[] = [];
  if (after.activityId !== booking.activityId) changed.push('ActivityID');
  if (after.date !== booking.date) changed.push('Date');
  if (after.time !== booking.time) changed.push('Time');
  if (after.participants !== booking.participants) changed.push('Participants');
  if (!sameJson(after.customer, booking.customer)) changed.push('Customer');
  if (!sameJson(after.answers, booking.answers)) changed.push('Answers');
  if (after.note !== booking.note) changed.push('Note');
  if (after.paymentReference !== booking.paymentReference) changed.push('PaymentReference');
  return changed;
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, sortKeys(v)]),
    );
  return value;
}
