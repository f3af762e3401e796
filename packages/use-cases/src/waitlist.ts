// The waitlist of full timeslots: joining (the booking page, or staff for a caller), the offers of freed places, and
// staff's remove, offer and book by hand. An offer is an ordinary hold (createBooking: the same conditional capacity
// update as every booking, so offers and bookings race for places under one rule and nothing is oversold) made in one
// transaction with the entry's move to `offered` and the offer e-mail's row in the mail outbox. The mail worker mints
// the hold's token as it sends the e-mail (only its hash kept; the claim link carries it) and publishes
// waitlist.notified.
import { randomUUID } from 'node:crypto';
import type {
  AddWaitlistEntryRequest,
  ConfirmShopHoldRequest,
  JoinShopWaitlistRequest,
  ShopBooking,
  ShopWaitlistEntry,
  ShopWaitlistOffer,
  TimeslotWaitlist,
  WaitlistEntry,
} from '@backbone/contracts';
import {
  findShopWaitlistTimeslot,
  findWaitlistEntry,
  findWaitlistEntryOfBooking,
  findWaitlistOfferSettings,
  findWaitlistTimeslotById,
  insertWaitlistOfferMail,
  joinWaitlist,
  listTimeslotsWithRoomForWaitlist,
  listWaitingEntries,
  listWaitlistOfTimeslot,
  moveWaitlistEntry,
  settleWaitlistOffers,
  type Db,
  type Pool,
  type WaitlistContact,
  type WaitlistEntryRecord,
  type WaitlistTimeslot,
} from '@backbone/db';
import {
  assertMayJoin,
  BOOKING_TOKEN_MARK,
  decideRelease,
  decideWaitlistAction,
  DomainError,
  notFound,
  timeslotUnavailable,
  ValidationError,
  type OperatorActor,
} from '@backbone/domain';
import { cancelBooking, confirmBooking, type BookingRef } from './booking-lifecycle.js';
import { createBooking } from './create-booking.js';
import { recordOrderCompleted } from './order-completed.js';
import { bookingOfToken, readShopBooking, type ShopCaller } from './shop-bookings.js';
import { confirmShopHold, type ShopDeps } from './shop-holds.js';

export interface WaitlistDeps {
  pool: Pool;
}

export function toWaitlistEntry(entry: WaitlistEntryRecord): WaitlistEntry {
  return {
    WaitlistID: entry.id,
    TimeslotID: entry.timeslotId,
    Date: entry.date,
    Time: entry.time,
    Position: entry.position,
    Participants: entry.participants,
    Customer: entry.contact,
    Channel: entry.channel,
    State: entry.state,
    BookingReference: entry.bookingReference,
    OfferExpiresAt: entry.offerExpiresAt?.toISOString() ?? null,
    CreatedAt: entry.createdAt.toISOString(),
  };
}

const toShopWaitlistEntry = (entry: WaitlistEntryRecord): ShopWaitlistEntry => ({
  Date: entry.date,
  Time: entry.time,
  Participants: entry.participants,
  Position: entry.position,
  State: entry.state,
});

async function join(deps: WaitlistDeps, accountId: string, slot: WaitlistTimeslot, participants: number, contact: WaitlistContact, channel: 'online' | 'pos') {
  assertMayJoin(slot, participants);
  return joinWaitlist(deps.pool, { accountId, timeslotId: slot.id, participants, contact, channel });
}

/** The booking page's join: an activity of the page's shopfront, at a date and time too full for the party. */
export async function joinShopWaitlist(
  deps: WaitlistDeps,
  caller: ShopCaller,
  request: JoinShopWaitlistRequest,
): Promise<{ entry: ShopWaitlistEntry; created: boolean }> {
  const accountId = caller.page.accountId;
  const slot = await findShopWaitlistTimeslot(deps.pool, accountId, { activityId: request.ActivityID, date: request.Date, time: request.Time });
  if (!slot) throw new ValidationError([{ field: 'ActivityID', message: 'ActivityID is not an activity offered by this account.' }]);
  if (slot === 'missing') throw timeslotUnavailable({ date: request.Date, time: request.Time }, 'missing');
  const { entry, created } = await join(deps, accountId, slot, request.Participants, request.Customer, 'online');
  return { entry: toShopWaitlistEntry(entry), created };
}

/** Staff add a caller to a timeslot's queue. */
export async function addWaitlistEntry(
  deps: WaitlistDeps,
  request: { accountId: string; timeslotId: number; entry: AddWaitlistEntryRequest },
): Promise<{ entry: WaitlistEntry; created: boolean }> {
  const slot = await findWaitlistTimeslotById(deps.pool, request.accountId, request.timeslotId);
  if (!slot) throw notFound('Timeslot');
  const { entry, created } = await join(deps, request.accountId, slot, request.entry.Participants, request.entry.Customer, 'pos');
  return { entry: toWaitlistEntry(entry), created };
}

/** A timeslot's waitlist as the console shows it; 404 for a timeslot of another account. */
export async function listTimeslotWaitlist(deps: WaitlistDeps, request: { accountId: string; timeslotId: number }): Promise<TimeslotWaitlist> {
  if (!(await findWaitlistTimeslotById(deps.pool, request.accountId, request.timeslotId))) throw notFound('Timeslot');
  return { Entries: (await listWaitlistOfTimeslot(deps.pool, request.accountId, request.timeslotId)).map(toWaitlistEntry) };
}

async function entryOf(deps: WaitlistDeps, accountId: string, id: number): Promise<WaitlistEntryRecord> {
  const entry = await findWaitlistEntry(deps.pool, accountId, id);
  if (!entry) throw notFound('Waitlist entry');
  return entry;
}

const lostRace = (entry: WaitlistEntryRecord) =>
  new DomainError('invalid-transition', `Waitlist entry ${entry.id} changed meanwhile: look at it again.`, { WaitlistID: entry.id });

/**
 * Holds the entry's places for the account's offer time and writes the offer e-mail, in one transaction: a refusal of
 * the places (409) or an entry another hand moved first leaves nothing behind.
 */
async function makeOffer(deps: WaitlistDeps, entry: WaitlistEntryRecord): Promise<void> {
  const settings = await findWaitlistOfferSettings(deps.pool, entry.accountId);
  await createBooking(
    deps,
    {
      accountId: entry.accountId,
      apiKeyId: null,
      partnerId: null,
      hold: { minutes: settings.offerMinutes },
      channel: entry.channel,
      activityId: entry.activityId,
      date: entry.date,
      time: entry.time,
      participants: entry.participants,
      customer: entry.contact,
      paymentReference: null,
      answers: undefined,
    },
    null,
    {
      withinBooking: async (tx, booking) => {
        const expiresAt = new Date(booking.ExpiresAt!);
        const moved = await moveWaitlistEntry(tx, entry.accountId, entry.id, {
          from: ['waiting'],
          to: 'offered',
          bookingReference: booking.Reference,
          offerExpiresAt: expiresAt,
        });
        if (!moved) throw lostRace(entry);
        await insertWaitlistOfferMail(tx, {
          accountId: entry.accountId,
          bookingReference: booking.Reference,
          toAddress: entry.contact.Email,
          data: {
            WaitlistID: String(entry.id),
            MultiBookingID: booking.Reference,
            // The waitlist.notified event's id, fixed here so that a publish repeated after a crash meters once.
            NotifiedEventID: randomUUID(),
            // The token's mark: the mail worker mints the hold's token when it sends the offer (only its hash kept), so
            // the clear token is in the message alone. Null without an enabled page.
            ClaimPath: settings.slug ? `/book/${settings.slug}/claim/${BOOKING_TOKEN_MARK}` : null,
            OfferExpiresAt: expiresAt.toISOString(),
            Participants: entry.participants,
          },
        });
      },
    },
  );
}

/** Staff offer the free places to an entry by hand, out of the queue's order. */
export async function offerWaitlistEntry(deps: WaitlistDeps, request: { accountId: string; waitlistId: number }): Promise<WaitlistEntry> {
  const entry = await entryOf(deps, request.accountId, request.waitlistId);
  if (decideWaitlistAction(entry.id, entry.state, 'offer') === 'act') await makeOffer(deps, entry);
  return toWaitlistEntry(await entryOf(deps, request.accountId, request.waitlistId));
}

const heldBooking = (entry: WaitlistEntryRecord): BookingRef => ({
  owner: { accountId: entry.accountId, partnerId: null },
  reference: entry.bookingReference!,
});

/** Staff take an entry off the queue; an open offer's hold is let go with it (its places pass on). */
export async function removeWaitlistEntry(
  deps: WaitlistDeps,
  request: { accountId: string; waitlistId: number; actor: OperatorActor },
): Promise<WaitlistEntry> {
  const entry = await entryOf(deps, request.accountId, request.waitlistId);
  if (decideWaitlistAction(entry.id, entry.state, 'remove') === 'act') {
    const remove = async (db: Db) => {
      if (!(await moveWaitlistEntry(db, entry.accountId, entry.id, { from: [entry.state], to: 'removed' }))) throw lostRace(entry);
    };
    if (entry.state === 'offered') {
      // A hold claimed meanwhile is a booking: decideRelease refuses it (409) rather than cancel it.
      let removed = false;
      await cancelBooking(deps, heldBooking(entry), { Reason: 'Waitlist offer withdrawn' }, request.actor, null, {
        decide: decideRelease,
        afterCancel: async (tx) => {
          await remove(tx);
          removed = true;
        },
      });
      // The hold had lapsed already: nothing to let go.
      if (!removed) await remove(deps.pool);
    } else {
      await remove(deps.pool);
    }
  }
  return toWaitlistEntry(await entryOf(deps, request.accountId, request.waitlistId));
}

/** Staff book an entry: a waiting one at once (point of sale), an offered one by confirming its hold. */
export async function bookWaitlistEntry(deps: WaitlistDeps, request: { accountId: string; waitlistId: number; actor: OperatorActor }): Promise<WaitlistEntry> {
  const entry = await entryOf(deps, request.accountId, request.waitlistId);
  if (decideWaitlistAction(entry.id, entry.state, 'book') === 'act') {
    const claim = async (tx: Db, reference: string) => {
      if (!(await moveWaitlistEntry(tx, entry.accountId, entry.id, { from: [entry.state], to: 'claimed', bookingReference: reference }))) throw lostRace(entry);
    };
    if (entry.state === 'offered') {
      await confirmBooking(deps, heldBooking(entry), { Customer: { ...entry.contact, Phone: entry.contact.Phone ?? undefined } }, request.actor, null, {
        afterConfirm: async (tx, booking) => {
          await recordOrderCompleted(tx, booking);
          await claim(tx, booking.reference);
        },
      });
    } else {
      await createBooking(
        deps,
        {
          accountId: entry.accountId,
          apiKeyId: request.actor.apiKeyId,
          partnerId: null,
          createdByUserId: request.actor.userId,
          hold: null,
          channel: 'pos',
          activityId: entry.activityId,
          date: entry.date,
          time: entry.time,
          participants: entry.participants,
          customer: entry.contact,
          paymentReference: null,
          answers: undefined,
        },
        null,
        {
          withinBooking: async (tx, booking) => {
            await recordOrderCompleted(tx, { accountId: entry.accountId, reference: booking.Reference, channel: booking.Channel });
            await claim(tx, booking.Reference);
          },
        },
      );
    }
  }
  return toWaitlistEntry(await entryOf(deps, request.accountId, request.waitlistId));
}

/** The offer a claim link's token opens (its hold, or the booking it became); 404 for any token that is not an offer's. */
async function offerOfToken(deps: ShopDeps, caller: ShopCaller, token: string) {
  const ref = await bookingOfToken(deps.pool, caller.page, token);
  const entry = await findWaitlistEntryOfBooking(deps.pool, caller.page.accountId, ref.bookingId);
  if (!entry) throw notFound('Waitlist offer');
  return { ref, entry };
}

export async function getShopWaitlistOffer(deps: ShopDeps, caller: ShopCaller, token: string): Promise<ShopWaitlistOffer> {
  const { ref, entry } = await offerOfToken(deps, caller, token);
  return { State: entry.state, Booking: await readShopBooking(deps.pool, ref) };
}

/** The customer books the offer's hold at the claim link: the booking page's Book, and the entry is claimed with it. */
export async function claimShopWaitlistOffer(deps: ShopDeps, caller: ShopCaller, token: string, request: ConfirmShopHoldRequest): Promise<ShopBooking> {
  const { entry } = await offerOfToken(deps, caller, token);
  return confirmShopHold(deps, caller, token, request, {
    afterConfirm: async (tx, booking) => {
      // The entry may have been settled as expired a moment before a claim that still found its hold live.
      await moveWaitlistEntry(tx, entry.accountId, entry.id, { from: ['offered', 'expired'], to: 'claimed', bookingReference: booking.reference });
    },
  });
}

/**
 * One pass of the waitlist's offers, across accounts: first the offers are brought in line with their holds (claimed,
 * or expired and passed on), then, on each timeslot whose free places fit a waiting party, the earliest entries that
 * fit are offered them. Places a booker takes meanwhile make an offer's reservation fail (409): the entry keeps its
 * position, and the pass goes on with the places the refusal says are left.
 */
export async function offerFreedPlaces(deps: WaitlistDeps, timeslotLimit: number): Promise<{ settled: number; timeslots: number; offered: number }> {
  const settled = await settleWaitlistOffers(deps.pool, 1000);
  const slots = await listTimeslotsWithRoomForWaitlist(deps.pool, timeslotLimit);
  let offered = 0;
  for (const slot of slots) {
    let available = slot.available;
    const queue = await listWaitingEntries(deps.pool, slot.accountId, slot.timeslotId);
    for (const candidate of queue) {
      // The earliest entries that fit: a party too large for what is free keeps its position, one behind it may fit.
      if (candidate.participants > available) continue;
      const entry = await findWaitlistEntry(deps.pool, slot.accountId, candidate.id);
      if (!entry || entry.state !== 'waiting') continue;
      try {
        await makeOffer(deps, entry);
        offered++;
        available -= entry.participants;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        if (error.code === 'insufficient-capacity') available = Number(error.extensions.Available ?? 0);
        else if (error.code === 'timeslot-unavailable') break;
        else if (error.code !== 'invalid-transition' && error.code !== 'validation') throw error;
      }
    }
  }
  return { settled, timeslots: slots.length, offered };
}
