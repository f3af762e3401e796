// Creating a booking: the rules a request must meet against its activity (422), then one atomic reservation that
// either books or says why not (409). The store is the persistence port; the db package implements it in SQL.
import { randomUUID } from 'node:crypto';
import type { Booking, BookingAnswer, BookingChannel, BookingCreatedPayload, BookingPrice } from '@backbone/contracts';
import { ValidationError } from './errors.js';
import { insufficientCapacity, partySizeError, timeslotUnavailable } from './booking-rules.js';
import { generateBookingReference } from './booking-reference.js';
import { completeCustomer, deskCustomer, type CustomerDetails } from './booking-lifecycle.js';
import type { AnswerFile, AnswerFileOwner } from './files.js';
import { checkAnswers, referencedFileIds, type StoredAnswer } from './waiver-answers.js';
import type { WaiverQuestion } from './waiver-questions.js';

/** The customer as stored: complete for a confirmed booking; a hold may carry only part of it until its confirm. */
export interface Customer {
  FirstName?: string;
  LastName?: string;
  Email?: string;
  Phone: string | null;
}

export interface NewBooking {
  accountId: string;
  /** The key that made the booking (null for bookings made by the operator). */
  apiKeyId: string | null;
  /** The partner whose key made the booking (null for the operator's channels). */
  partnerId: string | null;
  /** The console user who sold it (a point-of-sale sale made in a session); null otherwise. */
  createdByUserId?: string | null;
  /** Made with a test key: a sandbox booking, on the timeslots' test places. */
  test?: boolean;
  /** Hold the places for this long, awaiting a confirm; null books at once. */
  hold: { minutes: number } | null;
  channel: BookingChannel;
  activityId: string;
  date: string;
  time: string;
  participants: number;
  customer: CustomerDetails;
  paymentReference: string | null;
  /** Undefined when the client sent no answers (it may collect the waiver later); [] means "answered nothing". */
  answers: readonly BookingAnswer[] | undefined;
  /** An owner's confirmed sale past the timeslot's capacity (the desk's, in a transaction); false by default. */
  overbook?: boolean;
  /** Sold by the account's operator (the desk, the admin CLI): its answers may reference the files the desk uploaded. */
  byOperator?: boolean;
}

export interface BookableActivity {
  /** Internal numeric id (the product ID). */
  id: number;
  activityId: string;
  maxParticipants: number;
  /** Loaded only when the request carries answers. */
  questions: WaiverQuestion[] | null;
}

export interface Reservation {
  accountId: string;
  activity: BookableActivity;
  date: string;
  time: string;
  participants: number;
  reference: string;
  channel: BookingChannel;
  customer: Customer;
  paymentReference: string | null;
  answers: StoredAnswer[];
  /** The uploaded files the answers reference: the booking takes them (the store locked them in findAnswerFiles). */
  fileIds: string[];
  apiKeyId: string | null;
  partnerId: string | null;
  createdByUserId: string | null;
  holdMinutes: number | null;
  /** A sandbox reservation (a test key's): it takes the timeslot's test places, never live ones. */
  test: boolean;
  /** An owner's overbooking: the places are taken even past the capacity (still only in an open, future timeslot). */
  overbook?: boolean;
  eventId: string;
  /** The booking.created payload; the store adds OccurredAt, the commit time of the booking. */
  event: Omit<BookingCreatedPayload, 'OccurredAt'>;
}

/** How the timeslot looked when a reservation was refused; null when there is no such timeslot. */
export interface TimeslotState {
  /** The timeslot's row id, for releasing its lapsed holds. */
  id?: number;
  status: 'open' | 'closed';
  started: boolean;
  available: number;
  /** Places of holds that have expired but are still counted as booked until released. */
  lapsed: number;
}

export type ReservationOutcome =
  /** The price is the activity's at the instant the booking was written (the store records it with the booking). */
  | {
      kind: 'booked';
      createdAt: Date;
      expiresAt: Date | null;
      price: { unitPriceMinor: number; currency: string };
      /** How many of the party's places are past the timeslot's capacity (an owner's overbooking); 0 otherwise. */
      overbookedBy: number;
    }
  | { kind: 'refused'; timeslot: TimeslotState | null }
  /** The random reference already belongs to another booking (the unique index said so): draw another one. */
  | { kind: 'reference-taken' };

export interface BookingStore {
  /** An active activity of the account; with `anyShopfront` false, only one offered in the shopfront. */
  findActivity(accountId: string, activityId: string, options: { withQuestions: boolean; anyShopfront: boolean }): Promise<BookableActivity | null>;
  /**
   * The owner's stored files among `ids` that an answer may reference, under their row locks until the reservation
   * commits (a store over a transaction; the caller makes sure of one when there are files).
   */
  findAnswerFiles(owner: AnswerFileOwner, ids: readonly string[]): Promise<ReadonlyMap<string, AnswerFile>>;
  /** Reserves the places and records booking and event atomically, only if the timeslot is bookable and has room. */
  reserve(reservation: Reservation): Promise<ReservationOutcome>;
}

const ATTEMPTS = 5;

export async function reserveBooking(store: BookingStore, request: NewBooking): Promise<Booking> {
  // Partners and the online shop may only book what the shopfront offers; the point of sale may book any active activity.
  const activity = await store.findActivity(request.accountId, request.activityId, {
    withQuestions: request.answers !== undefined,
    anyShopfront: request.channel === 'pos',
  });
  if (!activity) throw new ValidationError([{ field: 'ActivityID', message: 'ActivityID is not an activity offered by this account.' }]);
  const tooLarge = partySizeError(request.participants, activity.maxParticipants);
  if (tooLarge) throw new ValidationError([tooLarge]);
  const fileIds = referencedFileIds(request.answers);
  const files =
    fileIds.length > 0
      ? await store.findAnswerFiles({ accountId: request.accountId, partnerId: request.partnerId, operator: request.byOperator === true }, fileIds)
      : new Map<string, AnswerFile>();
  const answers =
    request.answers === undefined ? [] : checkAnswers(activity.questions ?? [], request.answers, request.participants, { files, bookingId: null });
  // A hold may wait for the customer's details until its confirm; a booking made at once needs them now (at the
  // desk, the e-mail address is the walk-in's choice).
  const customer: Customer = request.hold
    ? { ...request.customer, Phone: request.customer.Phone ?? null }
    : request.channel === 'pos'
      ? deskCustomer(request.customer)
      : completeCustomer(request.customer, undefined);

  let lastRefusal: TimeslotState | null = null;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const reference = generateBookingReference();
    const eventId = randomUUID();
    const reservation: Reservation = {
      accountId: request.accountId,
      activity,
      date: request.date,
      time: request.time,
      participants: request.participants,
      reference,
      channel: request.channel,
      customer,
      paymentReference: request.paymentReference,
      answers,
      fileIds,
      apiKeyId: request.apiKeyId,
      partnerId: request.partnerId,
      createdByUserId: request.createdByUserId ?? null,
      holdMinutes: request.hold?.minutes ?? null,
      test: request.test ?? false,
      overbook: request.overbook ?? false,
      eventId,
      event: {
        EventID: eventId,
        AccountID: request.accountId,
        ...(request.partnerId ? { PartnerID: request.partnerId } : {}),
        ...(request.test ? { Test: true as const } : {}),
        Status: request.hold ? 'on_hold' : 'confirmed',
        Reference: reference,
        ActivityID: activity.activityId,
        Date: request.date,
        Time: request.time,
        Participants: request.participants,
        Channel: request.channel,
        PaymentReference: request.paymentReference,
      },
    };
    const outcome = await store.reserve(reservation);
    if (outcome.kind === 'booked') return bookingOf(reservation, outcome);
    if (outcome.kind === 'reference-taken') continue;
    const slot = outcome.timeslot;
    lastRefusal = slot;
    if (!slot) throw timeslotUnavailable(request, 'missing');
    if (slot.status === 'closed' || slot.started) throw timeslotUnavailable(request, slot.status === 'closed' ? 'closed' : 'started');
    // Places freed between the refusal and the look (a cancellation): try again.
    if (slot.available < request.participants) break;
  }
  if (lastRefusal) throw insufficientCapacity(request, { places: request.participants, verb: 'requested' }, lastRefusal.available);
  throw new Error(`no free booking reference after ${ATTEMPTS} attempts`);
}

/**
 * The price a booking was sold at: its unit price and currency then, and the total for its party now (the total set by
 * hand at the desk, when there is one).
 */
export function bookingPrice(booking: {
  unitPriceMinor: number;
  currency: string;
  priceAtSale: boolean;
  participants: number;
  priceOverrideMinor?: number | null;
}): BookingPrice {
  return {
    Currency: booking.currency,
    UnitAmount: booking.unitPriceMinor,
    TotalAmount: booking.priceOverrideMinor ?? booking.unitPriceMinor * booking.participants,
    AtSale: booking.priceAtSale,
  };
}

/** The booking as the create answers it, from its reservation, commit time and (for a hold) expiry. */
export function bookingOf(
  reservation: Reservation,
  stored: { createdAt: Date; expiresAt: Date | null; price: { unitPriceMinor: number; currency: string } },
): Booking {
  const { createdAt, expiresAt, price } = stored;
  return {
    Reference: reservation.reference,
    Status: expiresAt ? 'on_hold' : 'confirmed',
    ActivityID: reservation.activity.activityId,
    Date: reservation.date,
    Time: reservation.time,
    Participants: reservation.participants,
    Customer: reservation.customer,
    PaymentReference: reservation.paymentReference,
    Channel: reservation.channel,
    Price: bookingPrice({ ...price, priceAtSale: true, participants: reservation.participants }),
    CreatedAt: createdAt.toISOString(),
    ...(expiresAt ? { ExpiresAt: expiresAt.toISOString() } : {}),
    ...(reservation.test ? { Test: true as const } : {}),
  };
}
