// OCTO (/octo) over the partner API's inventory and use cases: products and availability are read from the same
// timeslots, and every booking write goes through createBooking (a hold), confirmBooking, changeBooking and
// cancelBooking, so capacity, walls, outbox events, webhooks, sync, the console and the CSV see an OCTO booking as any
// partner booking. What OCTO adds is kept with the booking in the same transactions: the reseller's uuid (unique per
// partner) and the unit items. A reservation's uuid is also its idempotency key: a repeat with the same uuid and body
// answers the booking it made; with another body it is INVALID_BOOKING_UUID.
import { randomUUID } from 'node:crypto';
import { CALENDAR_DATE_RULE } from '@backbone/contracts';
import type {
  OctoAvailability,
  OctoAvailabilityRequest,
  OctoBooking,
  OctoBookingListQuery,
  OctoCalendarDay,
  OctoCalendarRequest,
  OctoCancellationRequest,
  OctoConfirmationRequest,
  OctoProduct,
  OctoReservationRequest,
  OctoUnitItemsRequest,
  OctoUpdateRequest,
} from '@backbone/contracts';
import {
  moveHoldExpiry,
  findOctoBooking,
  findOctoSlots,
  findOctoSupplier,
  listOctoActivities,
  findOctoBookings,
  listOctoSlots,
  setOctoContactNotes,
  setOctoIdentity,
  setOctoUnitItems,
  type BookingRecord,
  type Db,
  type OctoBookingRecord,
  type OctoSupplierRecord,
  type Pool,
  type StoredOctoUnitItem,
} from '@backbone/db';
import {
  checkOctoDateRange,
  customerOfContact,
  formatInZone,
  holdMinutesOf,
  invalidAvailabilityId,
  invalidBookingUuid,
  invalidOptionId,
  invalidProductId,
  isCalendarDate,
  OCTO_OPTION_ID,
  octoBadRequest,
  octoUnprocessable,
  parseAvailabilityId,
  partySizeError,
  participantsOf,
  toOctoAvailability,
  toOctoBooking,
  toOctoCalendar,
  toOctoProduct,
  type BookingActor,
  type OctoActivity,
  type OctoView,
} from '@backbone/domain';
import { cancelBooking, confirmBooking, extendBookingHold } from './booking-lifecycle.js';
import { changeBooking, changeBookingWithin } from './change-booking.js';
import { createBooking } from './create-booking.js';
import { IdempotencyError } from './errors.js';
import { awaitCommittedDurable, hashRequest } from './idempotency.js';

/** Who calls: an ota key's partner (the reseller) within its account. */
export interface OctoCaller {
  accountId: string;
  partnerId: string;
  apiKeyId: string | null;
  /** A test key (the sandbox): test places and test bookings only. */
  test: boolean;
}

interface OctoDeps {
  pool: Pool;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LIST_LIMIT = 500;

const actorOf = (caller: OctoCaller): BookingActor => ({ kind: 'partner', partnerId: caller.partnerId, apiKeyId: caller.apiKeyId });
const ownerOf = (caller: OctoCaller) => ({ accountId: caller.accountId, partnerId: caller.partnerId, test: caller.test });

export async function getOctoSupplier(deps: OctoDeps, accountId: string): Promise<OctoSupplierRecord> {
  const supplier = await findOctoSupplier(deps.pool, accountId);
  if (!supplier) throw new Error(`account ${accountId} of a verified key was not found`);
  return supplier;
}

export async function listOctoProducts(deps: OctoDeps, accountId: string, view: OctoView): Promise<OctoProduct[]> {
  return (await listOctoActivities(deps.pool, accountId)).map((activity) => toOctoProduct(activity, view));
}

async function offeredActivity(db: Db, accountId: string, productId: string | undefined, startTimes = true): Promise<OctoActivity> {
  // Ids are UUIDs: anything else cannot be one, and is not sent to PostgreSQL as one.
  if (productId === undefined || !UUID.test(productId)) throw invalidProductId(productId ?? '');
  const [activity] = await listOctoActivities(db, accountId, { activityId: productId.toLowerCase(), startTimes });
  if (!activity) throw invalidProductId(productId);
  return activity;
}

async function offeredOption(db: Db, accountId: string, productId: string | undefined, optionId: string | undefined, startTimes = true): Promise<OctoActivity> {
  const activity = await offeredActivity(db, accountId, productId, startTimes);
  if (optionId !== OCTO_OPTION_ID) throw invalidOptionId(optionId ?? '');
  return activity;
}

export async function getOctoProduct(deps: OctoDeps, accountId: string, productId: string, view: OctoView): Promise<OctoProduct> {
  return toOctoProduct(await offeredActivity(deps.pool, accountId, productId), view);
}

/** The number of participants the availability request's units ask for (null: none asked). */
function unitsAsked(units: readonly { id: string; quantity: number }[] | undefined): number | null {
  if (!units) return null;
  const asked = units.flatMap((unit) => Array.from({ length: unit.quantity }, () => ({ unitId: unit.id })));
  return participantsOf(asked);
}

export async function checkOctoAvailability(
  deps: OctoDeps,
  accountId: string,
  request: OctoAvailabilityRequest,
  view: OctoView,
  test = false,
): Promise<OctoAvailability[]> {
  // An availability shows no product: its start times are not gathered.
  const activity = await offeredOption(deps.pool, accountId, request.productId, request.optionId, false);
  const units = unitsAsked(request.units);
  const ways = [
    request.localDateStart !== undefined || request.localDateEnd !== undefined,
    request.localDate !== undefined,
    request.availabilityIds !== undefined,
  ];
  if (ways.filter(Boolean).length !== 1) {
    throw octoBadRequest('Send exactly one of localDateStart with localDateEnd, localDate, or availabilityIds.');
  }
  let slots;
  if (request.availabilityIds) {
    const starts = request.availabilityIds.map((id) => parseAvailabilityId(id) ?? invalid(id));
    slots = await findOctoSlots(deps.pool, activity.internalId, starts, test);
  } else {
    const from = request.localDate ?? request.localDateStart;
    const to = request.localDate ?? request.localDateEnd;
    if (from === undefined || to === undefined) throw octoBadRequest('localDateStart and localDateEnd go together.');
    if (request.localDate !== undefined && !isCalendarDate(request.localDate)) throw octoBadRequest(`localDate ${CALENDAR_DATE_RULE}.`);
    checkOctoDateRange(from, to);
    slots = await listOctoSlots(deps.pool, activity.internalId, from, to, test);
  }
  return slots.map((slot) => toOctoAvailability(activity, slot, { ...view, units }));
}

function invalid(availabilityId: string): never {
  throw invalidAvailabilityId(availabilityId);
}

export async function getOctoAvailabilityCalendar(
  deps: OctoDeps,
  accountId: string,
  request: OctoCalendarRequest,
  view: OctoView,
  test = false,
): Promise<OctoCalendarDay[]> {
  const activity = await offeredOption(deps.pool, accountId, request.productId, request.optionId, false);
  const units = unitsAsked(request.units);
  checkOctoDateRange(request.localDateStart, request.localDateEnd);
  const slots = await listOctoSlots(deps.pool, activity.internalId, request.localDateStart, request.localDateEnd, test);
  return toOctoCalendar(activity, slots, request.localDateStart, request.localDateEnd, { ...view, units });
}

/** The timeslot an availability id names, of this activity: its local date and time (INVALID_AVAILABILITY_ID else). */
async function availabilityOf(db: Db, activity: OctoActivity, availabilityId: string | undefined): Promise<{ date: string; time: string }> {
  const start = availabilityId === undefined ? null : parseAvailabilityId(availabilityId);
  if (!start) throw invalidAvailabilityId(availabilityId ?? '');
  const [slot] = await findOctoSlots(db, activity.internalId, [start]);
  // The id must be the slot's local start with its offset exactly as we write it.
  if (!slot || formatInZone(slot.startsAt, activity.timeZone) !== availabilityId) throw invalidAvailabilityId(availabilityId!);
  return start;
}

/** The unit items as stored: each its unit (ours) and the reseller's uuid, or one of ours. */
function storedUnitItems(items: OctoUnitItemsRequest | undefined): StoredOctoUnitItem[] {
  // Well formed but nothing to book: OCTO's answer is UNPROCESSABLE_ENTITY (what its validator checks), not BAD_REQUEST.
  if (items === undefined || items.length === 0) throw octoUnprocessable('unitItems must hold at least one unit item.');
  participantsOf(items);
  return items.map((item) => {
    if (item.uuid !== undefined && !UUID.test(item.uuid)) throw octoBadRequest('unitItems[].uuid must be a UUID.');
    return { uuid: (item.uuid ?? randomUUID()).toLowerCase(), unitId: item.unitId };
  });
}

/** The notes of the contact as stored (blank is none); undefined when the request leaves them as they are. */
function contactNotesOf(contact: { notes?: string | null } | undefined): string | null | undefined {
  if (contact?.notes === undefined) return undefined;
  return contact.notes === null || contact.notes.trim() === '' ? null : contact.notes.trim();
}

/** An OCTO booking of the caller as OCTO shows it. */
async function answer(deps: OctoDeps, caller: OctoCaller, uuid: string, view: OctoView): Promise<OctoBooking> {
  const booking = await findOctoBooking(deps.pool, ownerOf(caller), uuid);
  if (!booking) throw invalidBookingUuid(uuid);
  return (await answerAll(deps, caller, [booking], view))[0]!;
}

async function answerAll(deps: OctoDeps, caller: OctoCaller, bookings: readonly OctoBookingRecord[], view: OctoView): Promise<OctoBooking[]> {
  const activities = new Map<string, OctoActivity>();
  for (const activityId of new Set(bookings.map((b) => b.activityId))) {
    const [activity] = await listOctoActivities(deps.pool, caller.accountId, { activityId, anyShopfront: true });
    if (activity) activities.set(activityId, activity);
  }
  return bookings.map((booking) => toOctoBooking(booking, activities.get(booking.activityId)!, view));
}

/** The reference of the caller's booking with this uuid (INVALID_BOOKING_UUID when it has none). */
async function referenceOf(deps: OctoDeps, caller: OctoCaller, uuid: string): Promise<string> {
  if (!UUID.test(uuid)) throw invalidBookingUuid(uuid);
  const booking = await findOctoBooking(deps.pool, ownerOf(caller), uuid.toLowerCase());
  if (!booking) throw invalidBookingUuid(uuid);
  return booking.reference;
}

export async function reserveOctoBooking(deps: OctoDeps, caller: OctoCaller, request: OctoReservationRequest, view: OctoView): Promise<OctoBooking> {
  if (request.uuid !== undefined && !UUID.test(request.uuid)) throw invalidBookingUuid(request.uuid);
  const uuid = (request.uuid ?? randomUUID()).toLowerCase();
  const activity = await offeredOption(deps.pool, caller.accountId, request.productId, request.optionId);
  const start = await availabilityOf(deps.pool, activity, request.availabilityId);
  const unitItems = storedUnitItems(request.unitItems);
  const tooLarge = partySizeError(unitItems.length, activity.maxParticipants, 'unitItems');
  if (tooLarge) throw octoUnprocessable(tooLarge.message);
  const notes = request.notes ?? null;
  const contactNotes = contactNotesOf(request.contact) ?? null;
  try {
    await createBooking(
      deps,
      {
        accountId: caller.accountId,
        apiKeyId: caller.apiKeyId,
        partnerId: caller.partnerId,
        test: caller.test,
        channel: 'ota',
        hold: { minutes: holdMinutesOf(request.expirationMinutes) },
        activityId: activity.activityId,
        date: start.date,
        time: start.time,
        participants: unitItems.length,
        customer: customerOfContact(request.contact),
        paymentReference: request.resellerReference ?? null,
        answers: undefined,
      },
      // The reseller's uuid is the reservation's idempotency key (per partner, on this operation, with the body's hash).
      {
        caller: `partner:${caller.partnerId}${caller.test ? ':test' : ''}`,
        operation: 'POST /octo/bookings',
        key: `octo-uuid:${uuid}`,
        requestHash: hashRequest(request),
      },
      { withinBooking: (tx, booking) => setOctoIdentity(tx, caller.accountId, booking.Reference, uuid, unitItems, notes, contactNotes) },
    );
  } catch (error) {
    if (error instanceof IdempotencyError) {
      throw error.kind === 'conflict' ? invalidBookingUuid(uuid) : octoUnprocessable('A reservation with this uuid is still being made; retry.');
    }
    // The uuid's idempotency record has lapsed, but the uuid still names a booking of this partner.
    if ((error as { constraint?: string }).constraint === 'bookings_octo_uuid_idx') throw invalidBookingUuid(uuid);
    throw error;
  }
  return answer(deps, caller, uuid, view);
}

export async function extendOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  expirationMinutes: number | undefined,
  view: OctoView,
): Promise<OctoBooking> {
  const reference = await referenceOf(deps, caller, uuid);
  await extendBookingHold(deps, { owner: ownerOf(caller), reference }, holdMinutesOf(expirationMinutes), actorOf(caller));
  return answer(deps, caller, uuid.toLowerCase(), view);
}

/** Replaces the unit items (and with them the party size) under the change's lock, when they were sent. */
function unitItemsChange(caller: OctoCaller, items: OctoUnitItemsRequest | undefined) {
  if (!items) return {};
  const stored = storedUnitItems(items);
  return {
    participants: stored.length,
    withinChange: (tx: Db, booking: { id: number }) => setOctoUnitItems(tx, caller.accountId, booking.id, stored),
  };
}

export async function confirmOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  request: OctoConfirmationRequest,
  view: OctoView,
): Promise<OctoBooking> {
  const reference = await referenceOf(deps, caller, uuid);
  const ref = { owner: ownerOf(caller), reference };
  const items = unitItemsChange(caller, request.unitItems);
  const customer = customerOfContact(request.contact);
  // New unit items or notes change the hold first, in the confirm's transaction: the change fits and the hold is
  // confirmed, or neither happens.
  const change =
    items.participants !== undefined || request.notes !== undefined
      ? {
          ...(items.participants !== undefined ? { participants: items.participants } : {}),
          ...(request.notes !== undefined ? { note: request.notes } : {}),
        }
      : null;
  const contactNotes = contactNotesOf(request.contact);
  let releasedLapsedHolds = false;
  await confirmBooking(
    deps,
    ref,
    { Customer: customer, ...(request.resellerReference ? { PaymentReference: request.resellerReference } : {}) },
    actorOf(caller),
    null,
    change || contactNotes !== undefined
      ? {
          beforeConfirm: async (tx) => {
            if (change) {
              const changed = await changeBookingWithin(tx, ref, change, actorOf(caller), items.withinChange ? { withinChange: items.withinChange } : {});
              releasedLapsedHolds = changed.releasedLapsedHolds;
            }
            if (contactNotes !== undefined) await setOctoContactNotes(tx, caller.accountId, reference, contactNotes);
          },
        }
      : {},
  );
  // Releasing lapsed holds let the transaction commit without waiting for the disk; the answer waits for it.
  if (releasedLapsedHolds) await awaitCommittedDurable(deps.pool);
  return answer(deps, caller, uuid.toLowerCase(), view);
}

export async function updateOctoBooking(deps: OctoDeps, caller: OctoCaller, uuid: string, request: OctoUpdateRequest, view: OctoView): Promise<OctoBooking> {
  const reference = await referenceOf(deps, caller, uuid);
  const current = (await findOctoBooking(deps.pool, ownerOf(caller), uuid.toLowerCase()))!;
  let move: { activityId: string; date: string; time: string } | undefined;
  if (request.productId !== undefined || request.optionId !== undefined || request.availabilityId !== undefined) {
    const activity = await offeredOption(deps.pool, caller.accountId, request.productId ?? current.activityId, request.optionId ?? OCTO_OPTION_ID);
    if (request.availabilityId === undefined && activity.activityId !== current.activityId) {
      throw invalidAvailabilityId('');
    }
    const start =
      request.availabilityId === undefined ? { date: current.date, time: current.time } : await availabilityOf(deps.pool, activity, request.availabilityId);
    move = { activityId: activity.activityId, ...start };
  }
  const items = unitItemsChange(caller, request.unitItems);
  const customer = request.contact ? customerOfContact(request.contact) : undefined;
  const contactNotes = contactNotesOf(request.contact);
  const holdMinutes = request.expirationMinutes === undefined ? undefined : holdMinutesOf(request.expirationMinutes);
  // Under the change's row lock: the unit items, the contact's notes, and a reservation's new expiry (a confirmed
  // booking has none to move).
  const withinChange = async (tx: Db, booking: BookingRecord) => {
    await items.withinChange?.(tx, booking);
    if (contactNotes !== undefined) await setOctoContactNotes(tx, caller.accountId, booking.reference, contactNotes);
    if (holdMinutes !== undefined && booking.status === 'on_hold') await moveHoldExpiry(tx, booking, holdMinutes, actorOf(caller));
  };
  await changeBooking(
    deps,
    { owner: ownerOf(caller), reference },
    {
      ...(move ? { move } : {}),
      ...(items.participants !== undefined ? { participants: items.participants } : {}),
      ...(customer ? { customer } : {}),
      ...(request.notes !== undefined ? { note: request.notes } : {}),
      ...(request.resellerReference !== undefined ? { paymentReference: request.resellerReference || null } : {}),
    },
    actorOf(caller),
    null,
    { withinChange },
  );
  return answer(deps, caller, uuid.toLowerCase(), view);
}

export async function cancelOctoBooking(
  deps: OctoDeps,
  caller: OctoCaller,
  uuid: string,
  request: OctoCancellationRequest,
  view: OctoView,
): Promise<OctoBooking> {
  const reference = await referenceOf(deps, caller, uuid);
  await cancelBooking(deps, { owner: ownerOf(caller), reference }, request.reason ? { Reason: request.reason } : {}, actorOf(caller));
  return answer(deps, caller, uuid.toLowerCase(), view);
}

/** DELETE /octo/bookings/{uuid} is OCTO's other way to cancel: the same cancellation. */
export function deleteOctoBooking(deps: OctoDeps, caller: OctoCaller, uuid: string, request: OctoCancellationRequest, view: OctoView): Promise<OctoBooking> {
  return cancelOctoBooking(deps, caller, uuid, request, view);
}

export async function getOctoBooking(deps: OctoDeps, caller: OctoCaller, uuid: string, view: OctoView): Promise<OctoBooking> {
  if (!UUID.test(uuid)) throw invalidBookingUuid(uuid);
  return answer(deps, caller, uuid.toLowerCase(), view);
}

export async function listOctoBookings(deps: OctoDeps, caller: OctoCaller, query: OctoBookingListQuery, view: OctoView): Promise<OctoBooking[]> {
  const from = query.localDate ?? query.localDateStart;
  const to = query.localDate ?? query.localDateEnd;
  if (query.resellerReference === undefined && query.supplierReference === undefined && from === undefined && to === undefined) {
    throw octoBadRequest('Send resellerReference, supplierReference, localDate, or localDateStart with localDateEnd.');
  }
  if ((from === undefined) !== (to === undefined)) throw octoBadRequest('localDateStart and localDateEnd go together.');
  if (from !== undefined && to !== undefined) checkOctoDateRange(from, to);
  let activityId: string | undefined;
  if (query.productId !== undefined) activityId = (await offeredActivity(deps.pool, caller.accountId, query.productId)).activityId;
  const bookings = await findOctoBookings(
    deps.pool,
    ownerOf(caller),
    { resellerReference: query.resellerReference, supplierReference: query.supplierReference, from, to, activityId },
    LIST_LIMIT,
  );
  return answerAll(deps, caller, bookings, view);
}
