// Creating a booking against an in-memory store: the rules checked before any reservation (422), what is reserved,
// and how each refusal of the store becomes an answer (409) or another attempt. Also the booking references.
import { describe, expect, it } from 'vitest';
import { bookingSchema } from '@backbone/contracts';
import {
  DomainError,
  REFERENCE_ALPHABET,
  ValidationError,
  reserveBooking,
  generateBookingReference,
  type BookableActivity,
  type BookingStore,
  type NewBooking,
  type Reservation,
  type ReservationOutcome,
  type WaiverQuestion,
} from '@backbone/domain';

const ACCOUNT = '00000000-0000-4000-8000-0000000000aa';
const ACTIVITY = '00000000-0000-4000-8000-0000000000bb';
const CREATED_AT = new Date('2026-06-01T12:00:00.123Z');

const consent: WaiverQuestion = { id: 5, question: 'I accept the risks', type: 'checkbox', required: true, options: [], perParticipant: false };

/** A store that answers `findActivity` with `activity` and each `reserve` with the next of `outcomes`. */
function fakeStore(
  outcomes: ReservationOutcome[],
  activity: BookableActivity | null = { id: 1, activityId: ACTIVITY, maxParticipants: 6, questions: [consent] },
) {
  const lookups: Array<{ accountId: string; activityId: string; options: { withQuestions: boolean; anyShopfront: boolean } }> = [];
  const reservations: Reservation[] = [];
  const store: BookingStore = {
    findActivity: (accountId, activityId, options) => {
      lookups.push({ accountId, activityId, options });
      return Promise.resolve(activity);
    },
    findAnswerFiles: () => Promise.resolve(new Map()),
    reserve: (reservation) => {
      reservations.push(reservation);
      const outcome = outcomes.shift();
      if (!outcome) throw new Error('reserve called more often than the test expected');
      return Promise.resolve(outcome);
    },
  };
  return { store, lookups, reservations };
}

const request = (overrides: Partial<NewBooking> = {}): NewBooking => ({
  accountId: ACCOUNT,
  apiKeyId: 'key-1',
  partnerId: null,
  hold: null,
  channel: 'ota',
  activityId: ACTIVITY,
  date: '2026-06-10',
  time: '10:00',
  participants: 2,
  customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
  paymentReference: 'pay_123',
  answers: undefined,
  ...overrides,
});

const booked: ReservationOutcome = {
  kind: 'booked',
  createdAt: CREATED_AT,
  expiresAt: null,
  price: { unitPriceMinor: 4500, currency: 'EUR' },
  overbookedBy: 0,
};
const refused = (timeslot: { status: 'open' | 'closed'; started: boolean; available: number } | null): ReservationOutcome => ({
  kind: 'refused',
  timeslot: timeslot && { ...timeslot, lapsed: 0 },
});

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('reserveBooking: before reserving', () => {
  it('refuses an activity the store does not find (not offered, other account, unknown) with a 422 on ActivityID', async () => {
    const { store, reservations } = fakeStore([], null);
    const error = await rejection(reserveBooking(store, request()));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors.map((e) => e.field)).toEqual(['ActivityID']);
    expect(reservations).toEqual([]);
  });

  it('asks for shopfront activities from partners and the shop, any active one from the point of sale', async () => {
    for (const [channel, anyShopfront] of [
      ['ota', false],
      ['online', false],
      ['pos', true],
    ] as const) {
      const { store, lookups } = fakeStore([booked]);
      await reserveBooking(store, request({ channel }));
      expect(lookups).toEqual([{ accountId: ACCOUNT, activityId: ACTIVITY, options: { withQuestions: false, anyShopfront } }]);
    }
  });

  it('refuses more participants than the activity takes, and takes exactly its maximum', async () => {
    const error = await rejection(reserveBooking(fakeStore([]).store, request({ participants: 7 })));
    expect((error as ValidationError).errors).toEqual([{ field: 'Participants', message: 'Participants must be at most 6 for this activity.' }]);
    await expect(reserveBooking(fakeStore([booked]).store, request({ participants: 6 }))).resolves.toMatchObject({ Participants: 6 });
  });

  it('checks waiver answers only when they are sent, loading the questions then', async () => {
    const without = fakeStore([booked]);
    await reserveBooking(without.store, request({ answers: undefined }));
    expect(without.reservations[0]?.answers).toEqual([]);

    const unticked = fakeStore([]);
    const error = await rejection(reserveBooking(unticked.store, request({ answers: [] })));
    expect((error as ValidationError).errors.map((e) => e.field)).toEqual(['Answers']);
    expect(unticked.lookups[0]?.options.withQuestions).toBe(true);
    expect(unticked.reservations).toEqual([]);

    const ticked = fakeStore([booked]);
    await reserveBooking(ticked.store, request({ answers: [{ QuestionID: 5, Value: true }] }));
    expect(ticked.reservations[0]?.answers).toEqual([{ QuestionID: 5, Question: 'I accept the risks', Type: 'checkbox', Participant: null, Value: true }]);
  });
});

describe('reserveBooking: reserving', () => {
  it('reserves with a fresh reference and event, and answers the booking as the API shows it', async () => {
    const { store, reservations } = fakeStore([booked]);
    const booking = await reserveBooking(store, request());
    expect(reservations).toHaveLength(1);
    const reservation = reservations[0]!;
    expect(reservation).toMatchObject({
      accountId: ACCOUNT,
      date: '2026-06-10',
      time: '10:00',
      participants: 2,
      channel: 'ota',
      apiKeyId: 'key-1',
      partnerId: null,
      holdMinutes: null,
      paymentReference: 'pay_123',
      customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: null },
    });
    expect(reservation.event).toEqual({
      EventID: reservation.eventId,
      AccountID: ACCOUNT,
      Reference: reservation.reference,
      ActivityID: ACTIVITY,
      Date: '2026-06-10',
      Time: '10:00',
      Participants: 2,
      Channel: 'ota',
      PaymentReference: 'pay_123',
      Status: 'confirmed',
    });
    expect(booking).toEqual({
      Reference: reservation.reference,
      Status: 'confirmed',
      ActivityID: ACTIVITY,
      Date: '2026-06-10',
      Time: '10:00',
      Participants: 2,
      Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: null },
      PaymentReference: 'pay_123',
      Channel: 'ota',
      Price: { Currency: 'EUR', UnitAmount: 4500, TotalAmount: 9000, AtSale: true },
      CreatedAt: '2026-06-01T12:00:00.123Z',
    });
  });

  it("keeps the customer's phone when given", async () => {
    const { store } = fakeStore([booked]);
    const booking = await reserveBooking(
      store,
      request({ customer: { FirstName: 'Bo', LastName: 'Lind', Email: 'bo@example.com', Phone: '+46 70 123 45 67' } }),
    );
    expect(booking.Customer.Phone).toBe('+46 70 123 45 67');
  });

  it('draws another reference (and event) when the reference is taken', async () => {
    const { store, reservations } = fakeStore([{ kind: 'reference-taken' }, { kind: 'reference-taken' }, booked]);
    const booking = await reserveBooking(store, request());
    expect(reservations).toHaveLength(3);
    expect(new Set(reservations.map((r) => r.reference)).size).toBe(3);
    expect(new Set(reservations.map((r) => r.eventId)).size).toBe(3);
    expect(booking.Reference).toBe(reservations[2]!.reference);
  });

  it('gives up after five taken references with a plain error (not a client mistake)', async () => {
    const { store, reservations } = fakeStore(Array.from({ length: 5 }, () => ({ kind: 'reference-taken' }) as const));
    const error: unknown = await reserveBooking(store, request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DomainError);
    expect(reservations).toHaveLength(5);
  });
});

describe('reserveBooking: refusals', () => {
  it('answers timeslot-unavailable when there is no such timeslot, or it is closed or has started', async () => {
    const cases: Array<[ReservationOutcome, string]> = [
      [refused(null), 'There is no timeslot on 2026-06-10 at 10:00. Choose another timeslot.'],
      [refused({ status: 'closed', started: false, available: 6 }), 'The timeslot on 2026-06-10 at 10:00 is closed. Choose another timeslot.'],
      [refused({ status: 'open', started: true, available: 6 }), 'The timeslot on 2026-06-10 at 10:00 has already started. Choose another timeslot.'],
    ];
    for (const [outcome, message] of cases) {
      const { store, reservations } = fakeStore([outcome]);
      const error = await rejection(reserveBooking(store, request()));
      expect(error.code).toBe('timeslot-unavailable');
      expect(error.message).toBe(message);
      expect(reservations).toHaveLength(1);
    }
  });

  it('answers insufficient-capacity with the places left', async () => {
    const cases: Array<[number, string, number]> = [
      [1, 'only 1 place is left', 1],
      [0, 'no places are left', 0],
      [-2, 'no places are left', 0],
    ];
    for (const [available, left, shown] of cases) {
      const { store, reservations } = fakeStore([refused({ status: 'open', started: false, available })]);
      const error = await rejection(reserveBooking(store, request({ participants: 2 })));
      expect(error.code).toBe('insufficient-capacity');
      expect(error.message).toBe(`Not enough places on 2026-06-10 at 10:00: 2 requested, ${left}.`);
      expect(error.extensions).toEqual({ Available: shown });
      expect(reservations).toHaveLength(1);
    }
    const { store } = fakeStore([refused({ status: 'open', started: false, available: 3 })]);
    expect((await rejection(reserveBooking(store, request({ participants: 5 })))).message).toContain('5 requested, only 3 places are left');
  });

  it('tries again when places were freed between the refusal and the look', async () => {
    const { store, reservations } = fakeStore([refused({ status: 'open', started: false, available: 2 }), booked]);
    await expect(reserveBooking(store, request({ participants: 2 }))).resolves.toMatchObject({ Status: 'confirmed' });
    expect(reservations).toHaveLength(2);
  });

  it('stops after five attempts with insufficient-capacity when every look shows room but every reservation is refused', async () => {
    const { store, reservations } = fakeStore(Array.from({ length: 5 }, () => refused({ status: 'open', started: false, available: 4 })));
    const error = await rejection(reserveBooking(store, request({ participants: 2 })));
    expect(error.code).toBe('insufficient-capacity');
    expect(error.extensions).toEqual({ Available: 4 });
    expect(reservations).toHaveLength(5);
  });
});

describe('generateBookingReference', () => {
  it("is two groups of four symbols of the alphabet without look-alikes, as the contract's pattern says", () => {
    const pattern = new RegExp(bookingSchema.properties.Reference.pattern);
    for (let i = 0; i < 500; i++) {
      const reference = generateBookingReference();
      expect(reference).toMatch(/^[^-]{4}-[^-]{4}$/);
      expect(reference).toMatch(pattern);
      expect([...reference.replace('-', '')].every((symbol) => REFERENCE_ALPHABET.includes(symbol))).toBe(true);
    }
    expect(REFERENCE_ALPHABET).toHaveLength(32);
    expect(REFERENCE_ALPHABET).not.toMatch(/[01IO]/);
  });

  it('is random: no repeats in a few thousand, and every symbol turns up', () => {
    const references = Array.from({ length: 5000 }, () => generateBookingReference());
    expect(new Set(references).size).toBe(references.length);
    const symbols = new Set(references.join('').replaceAll('-', ''));
    expect(symbols.size).toBe(32);
  });
});
