// Changing a booking after it was made: moving it to another timeslot (of its activity, or of another one), another
// party size, the customer, the answers, the operator's note. A change applies to a live booking (a hold not yet
// lapsed, or a confirmed booking); a partner may change until the activity's cancellation cutoff, the operator at any
// time. The places move in one transaction with the same conditional rule as a create: the target has room, or
// nothing changes.
import { randomUUID } from 'node:crypto';
import type { BookingAnswer, BookingChangeMember, BookingStatus, BookingUpdatedPayload, OperatorRole, PriceOverride } from '@backbone/contracts';
import { assertBeforeCutoff, insufficientCapacity, partySizeError, timeslotUnavailable } from './booking-rules.js';
import { DomainError, notFound, ValidationError } from './errors.js';
import type { OperatorActor } from './audit.js';
import { effectiveStatus, type BookingState, type CustomerDetails } from './booking-lifecycle.js';
import type { AnswerFile, AnswerFileOwner } from './files.js';
import { checkAnswers, referencedFileIds, type StoredAnswer } from './waiver-answers.js';
import { decidePriceOverride, LIST_PRICE, type ChargedPrice } from './price-override.js';
import type { WaiverQuestion } from './waiver-questions.js';

/**
 * Who made a change: a partner's key, an operator (a console user, or an admin key acting as owner), the customer at
 * the booking page's manage link, or the service.
 */
export type BookingActor = { kind: 'partner'; partnerId: string; apiKeyId: string | null } | OperatorActor | { kind: 'customer' } | { kind: 'system' };

/** A timeslot as a change sees it, read under its row lock. */
export interface ChangeTimeslot {
  id: number;
  date: string;
  time: string;
  status: 'open' | 'closed';
  started: boolean;
  capacity: number;
  booked: number;
  /** Places of holds that have lapsed but are still counted in booked until released. */
  lapsed: number;
}

/** Throws unless the booking may be changed now by `by`. */
export function assertChangeable(state: BookingState, now: Date, by: 'partner' | 'operator'): void {
  const status: BookingStatus = effectiveStatus(state.status, state.expiresAt, now);
  if (status !== 'on_hold' && status !== 'confirmed') {
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; it can no longer be changed.`, { Status: status });
  }
  if (by === 'partner') assertBeforeCutoff(state, now, 'change');
}

/**
 * The places a change takes from `target`: all of the new party when it moves there, the growth of the party when
 * it stays. A target that gains places must be open and not started (409 /timeslot-unavailable); one without room is
 * a 409 /insufficient-capacity naming what is left. Places of lapsed holds count as free: `releaseLapsed` asks the
 * caller to release them and look again.
 */
export function placesToTake(
  change: { fromTimeslotId: number; participantsBefore: number; participantsAfter: number },
  target: ChangeTimeslot,
): { take: number; verdict: 'fits' | 'release-lapsed' } {
  const moving = target.id !== change.fromTimeslotId;
  const take = moving ? change.participantsAfter : change.participantsAfter - change.participantsBefore;
  if (take <= 0) return { take, verdict: 'fits' };
  if (target.status === 'closed') throw timeslotUnavailable(target, 'closed');
  if (target.started) throw timeslotUnavailable(target, 'started');
  // An overbooked timeslot (an owner's choice) has no free places, never fewer than none.
  const free = Math.max(0, target.capacity - target.booked);
  if (take <= free) return { take, verdict: 'fits' };
  if (take <= free + target.lapsed) return { take, verdict: 'release-lapsed' };
  throw insufficientCapacity(target, { places: take, verb: 'needed' }, free + target.lapsed);
}

/**
 * How many of a party of `participants` a check-in records: null for the whole party (none named, or all of them), or
 * the number named, which may not exceed the party (422).
 */
export function arrivedOf(named: number | undefined, participants: number): number | null {
  if (named === undefined || named === participants) return null;
  if (named > participants) {
    throw new ValidationError([{ field: 'Participants', message: `Participants must be at most the party's ${participants}.` }]);
  }
  return named;
}

/**
 * Whether a check-in (`arrived` true) or its undo changes the booking. Only a live booking checks in; a repeat keeps
 * the first time. An undo applies in any status: a party checked in and then cancelled can still be corrected.
 */
export function decideCheckIn(state: BookingState, checkedInAt: Date | null, now: Date, arrived: boolean, recount = false): 'change' | 'unchanged' {
  if (!arrived) return checkedInAt === null ? 'unchanged' : 'change';
  // A repeat keeps the first time; it changes only how many of the party arrived (`recount`).
  if (checkedInAt !== null && !recount) return 'unchanged';
  const status: BookingStatus = effectiveStatus(state.status, state.expiresAt, now);
  if (status !== 'on_hold' && status !== 'confirmed') {
    throw new DomainError('invalid-transition', `Booking ${state.reference} is ${status}; it cannot be checked in.`, { Status: status });
  }
  return 'change';
}

/** What a change asks for; members left out stay as they are. */
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
  /**
   * The operator's price set by hand for the party after the change (null: back to the list price), asked by a user
   * of `role`. Left out, a price set by hand stays while the party and the activity do, and is dropped otherwise.
   */
  price?: { override: PriceOverride | null; role: OperatorRole };
  /** Why (recorded in the booking's history). */
  reason?: string | null;
}

/** A live booking as a change reads it, under its row lock (the store's booking record has these members). */
export interface ChangeableBooking {
  id: number;
  accountId: string;
  partnerId: string | null;
  /** A sandbox booking: its events say so. */
  test: boolean;
  reference: string;
  status: BookingStatus;
  expiresAt: Date | null;
  startsAtInstant: Date;
  cancellationCutoffMinutes: number;
  activityInternalId: number;
  activityId: string;
  maxParticipants: number;
  timeslotId: number;
  date: string;
  time: string;
  participants: number;
  customer: Record<string, unknown>;
  answers: unknown[];
  note: string | null;
  paymentReference: string | null;
  /** The unit price as sold and its currency; the total charged when set by hand, and why. */
  unitPriceMinor: number;
  currency: string;
  priceOverrideMinor: number | null;
  priceReason: string | null;
  /** The database's now, in the change's transaction. */
  now: Date;
}

/** An activity a booking may move to. */
export interface ChangeActivity {
  id: number;
  activityId: string;
  maxParticipants: number;
}

/** The booking as a change leaves it. */
export interface BookingChangeWrite {
  activityInternalId: number;
  timeslotId: number;
  participants: number;
  customer: Record<string, unknown>;
  answers: unknown[];
  note: string | null;
  paymentReference: string | null;
  /** The total charged when set by hand, and why (null members: the list price). */
  price: ChargedPrice;
  /** Places to add to (negative: give back to) each timeslot, by id; zero entries are left out. */
  places: ReadonlyMap<number, number>;
}

export interface BookingHistoryEntry {
  action: 'rescheduled' | 'edited';
  actor: BookingActor;
  reason: string | null;
  /** { Member: { From, To } } */
  changes: Record<string, { From: unknown; To: unknown }>;
}

/** The persistence a change needs, all within the transaction that holds the booking's row lock (db implements it). */
export interface BookingChangeStore {
  /** An active activity of the account; with `anyShopfront` false, only one offered in the shopfront. */
  findActivity(accountId: string, activityId: string, options: { anyShopfront: boolean }): Promise<ChangeActivity | null>;
  /** The id of the activity's timeslot at a local date and time, if there is one. */
  findTimeslotId(accountId: string, activityInternalId: number, date: string, time: string): Promise<number | null>;
  /** The activity's waiver questions. */
  findQuestions(accountId: string, activityId: string): Promise<WaiverQuestion[]>;
  /** The owner's stored files among `ids` that an answer may reference (AnswerFileOwner says whose), under their row locks. */
  findAnswerFiles(owner: AnswerFileOwner, ids: readonly string[]): Promise<ReadonlyMap<string, AnswerFile>>;
  /** The timeslots with these ids, each under its row lock, taken in id order. */
  lockTimeslots(accountId: string, ids: readonly number[]): Promise<Map<number, ChangeTimeslot>>;
  /** Releases the timeslot's holds that have lapsed (their places are free from their expiry). */
  releaseLapsedHolds(timeslotId: number): Promise<void>;
  /** Writes the places, the booking, its booking.updated event and its history row. */
  writeChange(
    booking: ChangeableBooking,
    write: BookingChangeWrite,
    event: { eventId: string; payload: Record<string, unknown> },
    history: BookingHistoryEntry,
  ): Promise<void>;
  /** Gives the booking the files its answers referenced (found and locked by findAnswerFiles); answers how many it took. */
  attachAnswerFiles(booking: ChangeableBooking, fileIds: readonly string[]): Promise<number>;
}

/**
 * Waiver answers sent for a booking (a confirm's, a change's) by `actor`, checked against the activity's questions and
 * the party size; the files they reference must be ones the actor may answer this booking with (AnswerFileOwner),
 * stored, and no other booking's (locked until commit).
 */
export async function checkBookingAnswers(
  store: Pick<BookingChangeStore, 'findQuestions' | 'findAnswerFiles'>,
  booking: Pick<ChangeableBooking, 'id' | 'accountId' | 'partnerId'>,
  actor: BookingActor,
  activityId: string,
  participants: number,
  answers: readonly BookingAnswer[],
): Promise<StoredAnswer[]> {
  const owner = { accountId: booking.accountId, partnerId: booking.partnerId, id: booking.id, operator: actor.kind === 'operator' };
  const files = await store.findAnswerFiles(owner, referencedFileIds(answers));
  return checkAnswers(await store.findQuestions(booking.accountId, activityId), answers, participants, { files, bookingId: booking.id });
}

/** The partner's (and a customer's) rules, or the operator's, which the service shares. */
export function actingAs(actor: BookingActor): 'partner' | 'operator' {
  return actor.kind === 'partner' || actor.kind === 'customer' ? 'partner' : 'operator';
}

/**
 * Applies a change to a booking held under its row lock: it must be changeable by `actor` now; the target activity and
 * timeslot must exist (for a partner: be offered), the party fit the activity, the answers its questions, and the
 * target timeslot the places the change takes, or nothing changes. A change that changes nothing records nothing.
 * `releasedLapsedHolds`: the change freed lapsed holds' places, which commits without a flush (the caller waits).
 */
export async function applyBookingChange(
  store: BookingChangeStore,
  booking: ChangeableBooking,
  request: BookingChangeRequest,
  actor: BookingActor,
): Promise<{ changed: BookingChangeMember[]; releasedLapsedHolds: boolean }> {
  assertChangeable(
    {
      reference: booking.reference,
      status: booking.status,
      expiresAt: booking.expiresAt,
      startsAt: booking.startsAtInstant,
      cancellationCutoffMinutes: booking.cancellationCutoffMinutes,
    },
    booking.now,
    actingAs(actor),
  );
  const activity = await targetActivity(store, booking, request, actor);
  const participants = request.participants ?? booking.participants;
  const tooLarge = partySizeError(participants, activity.maxParticipants);
  if (tooLarge) throw new ValidationError([tooLarge]);
  const timeslotId = request.move ? await targetTimeslot(store, booking, activity.id, request.move, actor) : booking.timeslotId;
  const answers: unknown[] = request.answers
    ? await checkBookingAnswers(store, booking, actor, activity.activityId, participants, request.answers)
    : activity.activityId === booking.activityId
      ? booking.answers
      : // The stored answers answer another activity's questions.
        [];
  const customer = request.customer ? { ...booking.customer, ...definedMembers(request.customer) } : booking.customer;
  const note = request.note === undefined ? booking.note : request.note;
  const paymentReference = request.paymentReference === undefined ? booking.paymentReference : request.paymentReference;

  const price = chargedAfter(booking, request, activity.activityId, participants);

  const moved = timeslotId !== booking.timeslotId;
  const date = request.move?.date ?? booking.date;
  const time = request.move?.time ?? booking.time;
  const changed = changedMembers(booking, { activityId: activity.activityId, date, time, participants, customer, answers, note, paymentReference });
  // A move to another activity takes that activity's price, which says enough; otherwise a price set by hand, changed
  // or dropped, is a change of its own.
  const repriced = activity.activityId === booking.activityId && (price.overrideMinor !== booking.priceOverrideMinor || price.reason !== booking.priceReason);
  if (repriced) changed.push('Price');
  if (changed.length === 0) return { changed, releasedLapsedHolds: false };

  let releasedLapsedHolds = false;
  const slots = await store.lockTimeslots(booking.accountId, moved ? [booking.timeslotId, timeslotId] : [timeslotId]);
  const party = { fromTimeslotId: booking.timeslotId, participantsBefore: booking.participants, participantsAfter: participants };
  let target = slots.get(timeslotId)!;
  if (placesToTake(party, target).verdict === 'release-lapsed') {
    // Places of holds that lapsed are free from that instant: released now, as a create would.
    await store.releaseLapsedHolds(timeslotId);
    releasedLapsedHolds = true;
    target = (await store.lockTimeslots(booking.accountId, [timeslotId])).get(timeslotId)!;
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
    else if (member === 'Price')
      history.Price = {
        From: { Amount: chargedTotal(booking.unitPriceMinor, booking.participants, booking.priceOverrideMinor), Currency: booking.currency },
        To: { Amount: chargedTotal(booking.unitPriceMinor, participants, price.overrideMinor), Currency: booking.currency },
      };
    else history[member] = { From: previous[member], To: after[member] };
  }
  const payload: Omit<BookingUpdatedPayload, 'OccurredAt'> = {
    EventID: randomUUID(),
    AccountID: booking.accountId,
    ...(booking.partnerId ? { PartnerID: booking.partnerId } : {}),
    ...(booking.test ? { Test: true as const } : {}),
    Reference: booking.reference,
    Status: booking.status === 'on_hold' ? 'on_hold' : 'confirmed',
    UpdatedAt: booking.now.toISOString(),
    ...after,
    Changed: changed,
    Previous: previous,
  };
  await store.writeChange(
    booking,
    { activityInternalId: activity.id, timeslotId, participants, customer, answers, note, paymentReference, price, places },
    { eventId: payload.EventID, payload },
    {
      action: moved || activity.id !== booking.activityInternalId ? 'rescheduled' : 'edited',
      actor,
      // A new price set by hand says why in the history; the change's own reason first.
      reason: request.reason ?? (repriced ? price.reason : null),
      changes: history,
    },
  );
  if (request.answers) {
    const fileIds = referencedFileIds(request.answers);
    const attached = await store.attachAnswerFiles(booking, fileIds);
    if (attached !== fileIds.length) throw new Error(`booking ${booking.reference} took ${attached} of its ${fileIds.length} files`);
  }
  return { changed, releasedLapsedHolds };
}

/**
 * The price a change leaves: the one asked for (the operator's, for a booking of no partner, within its activity), the
 * one set by hand before while the party and the activity stay, else the list price.
 */
function chargedAfter(booking: ChangeableBooking, request: BookingChangeRequest, activityId: string, participants: number): ChargedPrice {
  if (request.price !== undefined) {
    if (booking.partnerId !== null) {
      throw new ValidationError([{ field: 'PriceOverride', message: "A partner's booking keeps the price the partner sold it at." }]);
    }
    if (activityId !== booking.activityId) {
      throw new ValidationError([{ field: 'PriceOverride', message: 'Set the price after the move: the booking takes the other activity’s price.' }]);
    }
    if (request.price.override === null) return LIST_PRICE;
    return decidePriceOverride(
      { unitPriceMinor: booking.unitPriceMinor, currency: booking.currency, participants },
      request.price.override,
      request.price.role,
    );
  }
  if (activityId !== booking.activityId || participants !== booking.participants) return LIST_PRICE;
  return { overrideMinor: booking.priceOverrideMinor, reason: booking.priceReason };
}

/** The total charged: the one set by hand, else the unit price times the party. */
function chargedTotal(unitPriceMinor: number, participants: number, overrideMinor: number | null): number {
  return overrideMinor ?? unitPriceMinor * participants;
}

async function targetActivity(
  store: BookingChangeStore,
  booking: ChangeableBooking,
  request: BookingChangeRequest,
  actor: BookingActor,
): Promise<ChangeActivity> {
  const own = { id: booking.activityInternalId, activityId: booking.activityId, maxParticipants: booking.maxParticipants };
  const wanted = request.move?.activityId?.toLowerCase();
  if (!wanted || wanted === booking.activityId) return own;
  const found = await store.findActivity(booking.accountId, wanted, { anyShopfront: actingAs(actor) === 'operator' });
  if (!found) throw new ValidationError([{ field: 'ActivityID', message: 'ActivityID is not an activity offered by this account.' }]);
  return found;
}

async function targetTimeslot(
  store: BookingChangeStore,
  booking: ChangeableBooking,
  activityInternalId: number,
  move: { date: string; time: string },
  actor: BookingActor,
): Promise<number> {
  const id = await store.findTimeslotId(booking.accountId, activityInternalId, move.date, move.time);
  // A partner (or a customer) is told to pick another timeslot, as a create tells it; the operator picked a slot that
  // does not exist.
  if (id === null && actingAs(actor) === 'operator') throw notFound(`Timeslot on ${move.date} at ${move.time}`);
  if (id === null) throw timeslotUnavailable(move, 'missing');
  return id;
}

function definedMembers(customer: CustomerDetails): Record<string, unknown> {
  return Object.fromEntries(Object.entries(customer).filter(([, value]) => value !== undefined));
}

function changedMembers(
  booking: ChangeableBooking,
  after: Pick<ChangeableBooking, 'activityId' | 'date' | 'time' | 'participants' | 'customer' | 'answers' | 'note' | 'paymentReference'>,
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
