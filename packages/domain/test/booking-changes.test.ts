// Changing a booking after it was made: who may change it and when, the places a change takes from its target, the
// check-in, and applyBookingChange driven through an in-memory BookingChangeStore (what it reads, what it writes, and
// that a refused or empty change writes nothing).
import { describe, expect, it } from 'vitest';
import {
  actingAs,
  applyBookingChange,
  assertChangeable,
  decideCheckIn,
  DomainError,
  placesToTake,
  ValidationError,
  type AnswerFile,
  type BookingActor,
  type BookingChangeRequest,
  type BookingChangeStore,
  type BookingChangeWrite,
  type BookingHistoryEntry,
  type BookingState,
  type BookingStatus,
  type ChangeableBooking,
  type ChangeActivity,
  type ChangeTimeslot,
  type WaiverQuestion,
} from '@backbone/domain';

const ACCOUNT = '00000000-0000-4000-8000-0000000000aa';
const PARTNER = '00000000-0000-4000-8000-0000000000cc';
const ACTIVITY_A = '00000000-0000-4000-8000-00000000000a';
const ACTIVITY_B = '00000000-0000-4000-8000-00000000000b';
const BACKOFFICE = '00000000-0000-4000-8000-00000000000f';
const FILE_ID = '00000000-0000-4000-8000-0000000000f1';

const STARTS_AT = new Date('2026-06-10T09:00:00.000Z');
const NOW = new Date('2026-06-01T12:00:00.000Z');
const LATE = new Date('2026-06-10T08:30:00.000Z');

const partner: BookingActor = { kind: 'partner', partnerId: PARTNER, apiKeyId: 'key-1' };
const operator: BookingActor = { kind: 'operator', userId: 'user-1', apiKeyId: null };

function thrown(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return error as DomainError;
  }
  throw new Error('expected a DomainError, nothing was thrown');
}

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

const state = (status: BookingStatus, expiresAt: Date | null = null): BookingState => ({
  reference: 'ABCD2345',
  status,
  expiresAt,
  startsAt: STARTS_AT,
  cancellationCutoffMinutes: 60,
});

describe('assertChangeable', () => {
  it('lets a partner change a live hold or a confirmed booking before the cutoff', () => {
    expect(() => assertChangeable(state('on_hold', new Date('2026-06-01T12:30:00Z')), NOW, 'partner')).not.toThrow();
    expect(() => assertChangeable(state('confirmed'), NOW, 'partner')).not.toThrow();
  });

  it('refuses a partner from the cutoff on, and lets the operator change then', () => {
    const error = thrown(() => assertChangeable(state('confirmed'), LATE, 'partner'));
    expect(error.code).toBe('change-window-closed');
    expect(error.message).toBe('Booking ABCD2345 can no longer be changed: changes close less than 60 minutes before the start.');
    expect(() => assertChangeable(state('confirmed'), LATE, 'operator')).not.toThrow();
  });

  it('refuses everyone a cancelled, expired or lapsed booking, naming the status it has', () => {
    for (const [booking, status] of [
      [state('cancelled'), 'cancelled'],
      [state('expired'), 'expired'],
      [state('on_hold', new Date('2026-06-01T11:59:59.999Z')), 'expired'],
    ] as const) {
      const error = thrown(() => assertChangeable(booking, NOW, 'operator'));
      expect(error.code).toBe('invalid-transition');
      expect(error.message).toBe(`Booking ABCD2345 is ${status}; it can no longer be changed.`);
      expect(error.extensions).toEqual({ Status: status });
    }
  });
});

describe('placesToTake', () => {
  const slot = (overrides: Partial<ChangeTimeslot> = {}): ChangeTimeslot => ({
    id: 2,
    date: '2026-06-10',
    time: '11:00',
    status: 'open',
    started: false,
    capacity: 10,
    booked: 6,
    lapsed: 0,
    ...overrides,
  });
  const stay = (before: number, after: number) => ({ fromTimeslotId: 2, participantsBefore: before, participantsAfter: after });
  const move = (before: number, after: number) => ({ fromTimeslotId: 1, participantsBefore: before, participantsAfter: after });

  it('takes the growth of a party that stays, and the whole new party when it moves', () => {
    expect(placesToTake(stay(2, 5), slot())).toEqual({ take: 3, verdict: 'fits' });
    expect(placesToTake(move(2, 3), slot())).toEqual({ take: 3, verdict: 'fits' });
  });

  it('takes nothing (and checks nothing) when a party that stays shrinks or keeps its size, even in a closed, started or full slot', () => {
    const unusable = slot({ status: 'closed', started: true, booked: 10 });
    expect(placesToTake(stay(4, 2), unusable)).toEqual({ take: -2, verdict: 'fits' });
    expect(placesToTake(stay(3, 3), unusable)).toEqual({ take: 0, verdict: 'fits' });
  });

  it('refuses a target that gains places while closed or started, before looking at its room', () => {
    const closed = thrown(() => placesToTake(move(2, 2), slot({ status: 'closed', booked: 10 })));
    expect(closed.code).toBe('timeslot-unavailable');
    expect(closed.message).toBe('The timeslot on 2026-06-10 at 11:00 is closed. Choose another timeslot.');
    const started = thrown(() => placesToTake(stay(2, 3), slot({ started: true })));
    expect(started.message).toBe('The timeslot on 2026-06-10 at 11:00 has already started. Choose another timeslot.');
  });

  it('fits exactly the free places; past them, asks for lapsed holds to be released when they make the room', () => {
    expect(placesToTake(move(2, 4), slot())).toEqual({ take: 4, verdict: 'fits' });
    expect(placesToTake(move(2, 5), slot({ lapsed: 1 }))).toEqual({ take: 5, verdict: 'release-lapsed' });
    expect(placesToTake(move(2, 7), slot({ lapsed: 3 }))).toEqual({ take: 7, verdict: 'release-lapsed' });
  });

  it('refuses what even the lapsed holds cannot make room for, counting them as free', () => {
    const error = thrown(() => placesToTake(move(2, 8), slot({ lapsed: 3 })));
    expect(error.code).toBe('insufficient-capacity');
    expect(error.message).toBe('Not enough places on 2026-06-10 at 11:00: 8 needed, only 7 places are left. Nothing was changed.');
    expect(error.extensions).toEqual({ Available: 7 });
  });
});

describe('decideCheckIn', () => {
  const checkedInAt = new Date('2026-06-10T08:55:00Z');

  it('checks in a live booking once; a repeat keeps the first time', () => {
    expect(decideCheckIn(state('confirmed'), null, NOW, true)).toBe('change');
    expect(decideCheckIn(state('on_hold', new Date('2026-06-01T12:30:00Z')), null, NOW, true)).toBe('change');
    expect(decideCheckIn(state('confirmed'), checkedInAt, NOW, true)).toBe('unchanged');
  });

  it('refuses to check in a booking that is not live', () => {
    for (const [booking, status] of [
      [state('cancelled'), 'cancelled'],
      [state('on_hold', new Date('2026-06-01T11:00:00Z')), 'expired'],
    ] as const) {
      const error = thrown(() => decideCheckIn(booking, null, NOW, true));
      expect(error.code).toBe('invalid-transition');
      expect(error.message).toBe(`Booking ABCD2345 is ${status}; it cannot be checked in.`);
    }
  });

  it('undoes a check-in in any status, and an undo of none changes nothing', () => {
    expect(decideCheckIn(state('cancelled'), checkedInAt, NOW, false)).toBe('change');
    expect(decideCheckIn(state('confirmed'), null, NOW, false)).toBe('unchanged');
  });
});

describe('actingAs', () => {
  it("gives a partner's key the partner's rules, and the operator and the service the operator's", () => {
    expect(actingAs(partner)).toBe('partner');
    expect(actingAs(operator)).toBe('operator');
    expect(actingAs({ kind: 'system' })).toBe('operator');
  });
});

// --- applyBookingChange over an in-memory store ------------------------------------------------------------------

interface Slot extends ChangeTimeslot {
  activityInternalId: number;
}

interface World {
  activities: Array<ChangeActivity & { shopfront: boolean }>;
  slots: Slot[];
  questions: Record<string, WaiverQuestion[]>;
  files: AnswerFile[];
}

interface Written {
  write: BookingChangeWrite;
  event: { eventId: string; payload: Record<string, unknown> };
  history: BookingHistoryEntry;
}

/** A store over `world`: it finds what is there, locks copies of the slots, and records every write it is asked for. */
function fakeStore(world: World) {
  const log = {
    activityLookups: [] as Array<{ activityId: string; anyShopfront: boolean }>,
    locked: [] as number[][],
    released: [] as number[],
    written: [] as Written[],
    attached: [] as string[][],
    order: [] as string[],
  };
  const slotOf = (id: number) => world.slots.find((s) => s.id === id)!;
  const store: BookingChangeStore = {
    findActivity: async (accountId, activityId, { anyShopfront }) => {
      expect(accountId).toBe(ACCOUNT);
      log.activityLookups.push({ activityId, anyShopfront });
      const found = world.activities.find((a) => a.activityId === activityId && (anyShopfront || a.shopfront));
      return found ? { id: found.id, activityId: found.activityId, maxParticipants: found.maxParticipants } : null;
    },
    findTimeslotId: async (_accountId, activityInternalId, date, time) =>
      world.slots.find((s) => s.activityInternalId === activityInternalId && s.date === date && s.time === time)?.id ?? null,
    findQuestions: async (_accountId, activityId) => world.questions[activityId] ?? [],
    findAnswerFiles: async (_owner, ids) => new Map(world.files.filter((f) => ids.includes(f.id)).map((f) => [f.id, f])),
    lockTimeslots: async (_accountId, ids) => {
      log.locked.push([...ids]);
      return new Map(ids.map((id) => [id, { ...slotOf(id) }]));
    },
    releaseLapsedHolds: async (timeslotId) => {
      log.released.push(timeslotId);
      const slot = slotOf(timeslotId);
      slot.booked -= slot.lapsed;
      slot.lapsed = 0;
    },
    writeChange: async (_booking, write, event, history) => {
      log.order.push('writeChange');
      log.written.push({ write, event, history });
    },
    attachAnswerFiles: async (_booking, fileIds) => {
      log.order.push('attachAnswerFiles');
      log.attached.push([...fileIds]);
      return fileIds.length;
    },
  };
  return { store, log };
}

function world(overrides: Partial<World> = {}): World {
  return {
    activities: [
      { id: 1, activityId: ACTIVITY_A, maxParticipants: 6, shopfront: true },
      { id: 2, activityId: ACTIVITY_B, maxParticipants: 4, shopfront: true },
      { id: 3, activityId: BACKOFFICE, maxParticipants: 20, shopfront: false },
    ],
    slots: [
      { id: 1, activityInternalId: 1, date: '2026-06-10', time: '10:00', status: 'open', started: false, capacity: 10, booked: 4, lapsed: 0 },
      { id: 2, activityInternalId: 1, date: '2026-06-10', time: '11:00', status: 'open', started: false, capacity: 10, booked: 0, lapsed: 0 },
      { id: 3, activityInternalId: 2, date: '2026-06-11', time: '09:30', status: 'open', started: false, capacity: 8, booked: 0, lapsed: 0 },
      { id: 4, activityInternalId: 3, date: '2026-06-12', time: '14:00', status: 'open', started: false, capacity: 30, booked: 0, lapsed: 0 },
    ],
    questions: {},
    files: [],
    ...overrides,
  };
}

const booking = (overrides: Partial<ChangeableBooking> = {}): ChangeableBooking => ({
  id: 7,
  accountId: ACCOUNT,
  partnerId: PARTNER,
  test: false,
  reference: 'ABCD2345',
  status: 'confirmed',
  expiresAt: null,
  startsAtInstant: STARTS_AT,
  cancellationCutoffMinutes: 60,
  activityInternalId: 1,
  activityId: ACTIVITY_A,
  maxParticipants: 6,
  timeslotId: 1,
  date: '2026-06-10',
  time: '10:00',
  participants: 2,
  customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: null },
  answers: [],
  note: null,
  paymentReference: 'pay_1',
  unitPriceMinor: 4500,
  currency: 'EUR',
  priceOverrideMinor: null,
  priceReason: null,
  now: NOW,
  ...overrides,
});

const change = (store: BookingChangeStore, request: BookingChangeRequest, actor: BookingActor = partner, of: ChangeableBooking = booking()) =>
  applyBookingChange(store, of, request, actor);

describe('applyBookingChange: moving and resizing', () => {
  it('moves the party to another timeslot of its activity: places leave one slot and take the other, both locked', async () => {
    const { store, log } = fakeStore(world());
    const result = await change(store, { move: { date: '2026-06-10', time: '11:00' }, reason: 'rain' });

    expect(result).toEqual({ changed: ['Time'], releasedLapsedHolds: false });
    expect(log.locked).toEqual([[1, 2]]);
    expect(log.written).toHaveLength(1);
    const { write, event, history } = log.written[0]!;
    expect(write).toMatchObject({ activityInternalId: 1, timeslotId: 2, participants: 2, paymentReference: 'pay_1', note: null });
    expect([...write.places]).toEqual([
      [1, -2],
      [2, 2],
    ]);
    expect(history).toEqual({ action: 'rescheduled', actor: partner, reason: 'rain', changes: { Time: { From: '10:00', To: '11:00' } } });
    expect(event.payload).toEqual({
      EventID: event.eventId,
      AccountID: ACCOUNT,
      PartnerID: PARTNER,
      Reference: 'ABCD2345',
      Status: 'confirmed',
      UpdatedAt: NOW.toISOString(),
      ActivityID: ACTIVITY_A,
      Date: '2026-06-10',
      Time: '11:00',
      Participants: 2,
      Changed: ['Time'],
      Previous: { ActivityID: ACTIVITY_A, Date: '2026-06-10', Time: '10:00', Participants: 2 },
    });
    expect(event.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('grows a party in place by the difference, as an edit; a hold stays on hold in the event, and the operator leaves no PartnerID', async () => {
    const { store, log } = fakeStore(world());
    const result = await change(store, { participants: 5 }, operator, booking({ status: 'on_hold', partnerId: null }));

    expect(result.changed).toEqual(['Participants']);
    expect(log.locked).toEqual([[1]]);
    const { write, event, history } = log.written[0]!;
    expect([...write.places]).toEqual([[1, 3]]);
    expect(history.action).toBe('edited');
    expect(history.changes).toEqual({ Participants: { From: 2, To: 5 } });
    expect(event.payload.Status).toBe('on_hold');
    expect(event.payload).not.toHaveProperty('PartnerID');
  });

  it('gives places back when a party shrinks, even in a timeslot that has since closed', async () => {
    const closed = world();
    closed.slots[0]!.status = 'closed';
    const { store, log } = fakeStore(closed);
    await change(store, { participants: 1 }, partner, booking({ participants: 3 }));
    expect([...log.written[0]!.write.places]).toEqual([[1, -2]]);
  });

  it('moves to an offered activity of the account, and drops the answers, which answered the other one', async () => {
    const { store, log } = fakeStore(world());
    const answered = booking({ answers: [{ QuestionID: 1, Question: 'Any allergies?', Type: 'text', Participant: null, Value: 'none' }] });
    const result = await change(store, { move: { activityId: ACTIVITY_B.toUpperCase(), date: '2026-06-11', time: '09:30' } }, partner, answered);

    expect(log.activityLookups).toEqual([{ activityId: ACTIVITY_B, anyShopfront: false }]);
    expect(result.changed).toEqual(['ActivityID', 'Date', 'Time', 'Answers']);
    const { write, history } = log.written[0]!;
    expect(write).toMatchObject({ activityInternalId: 2, timeslotId: 3, answers: [] });
    expect(history.action).toBe('rescheduled');
    expect(history.changes.Answers).toEqual({ From: 1, To: 0 });
    expect(history.changes.ActivityID).toEqual({ From: ACTIVITY_A, To: ACTIVITY_B });
  });

  it("treats the booking's own activity, in any case, as no move of activity (no lookup)", async () => {
    const { store, log } = fakeStore(world());
    await change(store, { move: { activityId: ACTIVITY_A.toUpperCase(), date: '2026-06-10', time: '11:00' } });
    expect(log.activityLookups).toEqual([]);
    expect(log.written[0]!.write.activityInternalId).toBe(1);
  });

  it("holds the party to the target activity's maximum, before anything is locked", async () => {
    const { store, log } = fakeStore(world());
    const error = await rejection(change(store, { move: { activityId: ACTIVITY_B, date: '2026-06-11', time: '09:30' }, participants: 5 }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([{ field: 'Participants', message: 'Participants must be at most 4 for this activity.' }]);
    expect(log.locked).toEqual([]);
    expect(log.written).toEqual([]);
  });
});

describe('applyBookingChange: whether the booking may be changed at all', () => {
  it('refuses a partner past the cutoff and anyone a cancelled booking, before any look-up or lock', async () => {
    const late = fakeStore(world());
    const pastCutoff = booking({ now: new Date(STARTS_AT.getTime() - 30 * 60_000) });
    const error = await rejection(change(late.store, { participants: 3 }, partner, pastCutoff));
    expect(error.code).toBe('change-window-closed');
    expect(late.log).toMatchObject({ activityLookups: [], locked: [], written: [] });
    await change(late.store, { participants: 3 }, operator, pastCutoff);
    expect(late.log.written).toHaveLength(1);

    const gone = fakeStore(world());
    const cancelled = await rejection(change(gone.store, { participants: 3 }, operator, booking({ status: 'cancelled' })));
    expect(cancelled.code).toBe('invalid-transition');
    expect(gone.log).toMatchObject({ locked: [], written: [] });
  });
});

describe('applyBookingChange: what is not offered, and what does not fit', () => {
  it('refuses a partner an activity that is not in the shopfront, which the operator may move to', async () => {
    const refused = fakeStore(world());
    const error = await rejection(change(refused.store, { move: { activityId: BACKOFFICE, date: '2026-06-12', time: '14:00' } }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([{ field: 'ActivityID', message: 'ActivityID is not an activity offered by this account.' }]);
    expect(refused.log.activityLookups).toEqual([{ activityId: BACKOFFICE, anyShopfront: false }]);
    expect(refused.log.written).toEqual([]);

    const allowed = fakeStore(world());
    await change(allowed.store, { move: { activityId: BACKOFFICE, date: '2026-06-12', time: '14:00' } }, operator);
    expect(allowed.log.activityLookups).toEqual([{ activityId: BACKOFFICE, anyShopfront: true }]);
    expect(allowed.log.written[0]!.write).toMatchObject({ activityInternalId: 3, timeslotId: 4 });
  });

  it('tells a partner to choose another timeslot when there is none then, and the operator that it was not found', async () => {
    const missing = { move: { date: '2026-06-10', time: '12:00' } };
    const forPartner = await rejection(change(fakeStore(world()).store, missing, partner));
    expect(forPartner.code).toBe('timeslot-unavailable');
    expect(forPartner.message).toBe('There is no timeslot on 2026-06-10 at 12:00. Choose another timeslot.');
    const forOperator = await rejection(change(fakeStore(world()).store, missing, operator));
    expect(forOperator.code).toBe('not-found');
    expect(forOperator.message).toBe('Timeslot on 2026-06-10 at 12:00 not found.');
  });

  it('refuses a full target, naming what is left, and writes nothing', async () => {
    const full = world();
    full.slots[1]!.booked = 9;
    const { store, log } = fakeStore(full);
    const error = await rejection(change(store, { move: { date: '2026-06-10', time: '11:00' } }));
    expect(error.code).toBe('insufficient-capacity');
    expect(error.message).toBe('Not enough places on 2026-06-10 at 11:00: 2 needed, only 1 place is left. Nothing was changed.');
    expect(log.released).toEqual([]);
    expect(log.written).toEqual([]);
  });

  it('releases lapsed holds when their places make the room, looks again under lock, and says so', async () => {
    const lapsed = world();
    Object.assign(lapsed.slots[1]!, { booked: 10, lapsed: 3 });
    const { store, log } = fakeStore(lapsed);
    const result = await change(store, { move: { date: '2026-06-10', time: '11:00' } });

    expect(result).toEqual({ changed: ['Time'], releasedLapsedHolds: true });
    expect(log.released).toEqual([2]);
    expect(log.locked).toEqual([[1, 2], [2]]);
    expect([...log.written[0]!.write.places]).toEqual([
      [1, -2],
      [2, 2],
    ]);
  });

  it('does not release lapsed holds the change does not need', async () => {
    const lapsed = world();
    Object.assign(lapsed.slots[1]!, { booked: 5, lapsed: 3 });
    const { store, log } = fakeStore(lapsed);
    expect((await change(store, { move: { date: '2026-06-10', time: '11:00' } })).releasedLapsedHolds).toBe(false);
    expect(log.released).toEqual([]);
  });
});

describe('applyBookingChange: a change that changes nothing', () => {
  it('writes nothing and locks nothing when every member sent is as stored (customer members in any order)', async () => {
    const { store, log } = fakeStore(world());
    const result = await change(store, {
      move: { date: '2026-06-10', time: '10:00' },
      participants: 2,
      customer: { Email: 'ana@example.com', FirstName: 'Ana' },
      note: null,
      paymentReference: 'pay_1',
      reason: 'nothing really',
    });
    expect(result).toEqual({ changed: [], releasedLapsedHolds: false });
    expect(log.locked).toEqual([]);
    expect(log.written).toEqual([]);
  });

  it('records only what differs: a new customer member, the note, and a removed payment reference', async () => {
    const { store, log } = fakeStore(world());
    const result = await change(store, { customer: { Phone: '+351 912 345 678', FirstName: undefined }, note: 'VIP', paymentReference: null }, operator);
    expect(result.changed).toEqual(['Customer', 'Note', 'PaymentReference']);
    const { write, history } = log.written[0]!;
    expect(write.customer).toEqual({ FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351 912 345 678' });
    // No place moves (the write's places hold no non-zero entry).
    expect([...write.places].filter(([, delta]) => delta !== 0)).toEqual([]);
    expect(history).toMatchObject({ action: 'edited', reason: null });
    expect(history.changes).toEqual({
      Customer: { From: booking().customer, To: write.customer },
      Note: { From: null, To: 'VIP' },
      PaymentReference: { From: 'pay_1', To: null },
    });
  });
});

describe('applyBookingChange: answers', () => {
  const names: WaiverQuestion = { id: 1, question: 'Name of each participant', type: 'text', required: true, options: [], perParticipant: true };
  const waiver: WaiverQuestion = { id: 2, question: 'Signed waiver', type: 'file', required: false, options: [], perParticipant: false };
  const withQuestions = () => world({ questions: { [ACTIVITY_A]: [names, waiver] } });

  it("checks answers sent with a change against the activity's questions and the new party size", async () => {
    const { store, log } = fakeStore(withQuestions());
    const answers = [
      { QuestionID: 1, Participant: 1, Value: 'Ana' },
      { QuestionID: 1, Participant: 2, Value: 'Rui' },
    ];
    const error = await rejection(change(store, { participants: 3, answers }));
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toEqual([
      { field: 'Answers', message: 'Answers: required question 1 ("Name of each participant") must be answered for participant 3.' },
    ]);
    expect(log.written).toEqual([]);
  });

  it('stores the answers with their questions, and has the booking take the files they reference after writing it', async () => {
    const file: AnswerFile = { id: FILE_ID, name: 'waiver.pdf', contentType: 'application/pdf', size: 1234, bookingId: null };
    const { store, log } = fakeStore({ ...withQuestions(), files: [file] });
    const result = await change(store, {
      participants: 3,
      answers: [
        { QuestionID: 1, Participant: 1, Value: 'Ana' },
        { QuestionID: 1, Participant: 2, Value: 'Rui' },
        { QuestionID: 1, Participant: 3, Value: 'Eva' },
        { QuestionID: 2, FileID: FILE_ID.toUpperCase() },
      ],
    });

    expect(result.changed).toEqual(['Participants', 'Answers']);
    const { write, history } = log.written[0]!;
    expect(write.answers).toHaveLength(4);
    expect(write.answers[0]).toEqual({ QuestionID: 1, Question: 'Name of each participant', Type: 'text', Participant: 1, Value: 'Ana' });
    expect(write.answers[3]).toMatchObject({ QuestionID: 2, Value: FILE_ID, File: { FileID: FILE_ID, Name: 'waiver.pdf' } });
    expect(history.changes.Answers).toEqual({ From: 0, To: 4 });
    expect(log.attached).toEqual([[FILE_ID]]);
    expect(log.order).toEqual(['writeChange', 'attachAnswerFiles']);
  });

  it('fails loudly (not as a client mistake) when the store takes fewer files than the answers reference', async () => {
    const file: AnswerFile = { id: FILE_ID, name: 'waiver.pdf', contentType: 'application/pdf', size: 1234, bookingId: null };
    const { store } = fakeStore({ ...withQuestions(), files: [file] });
    store.attachAnswerFiles = async () => 0;
    const error: unknown = await change(store, {
      answers: [
        { QuestionID: 1, Participant: 1, Value: 'Ana' },
        { QuestionID: 1, Participant: 2, Value: 'Rui' },
        { QuestionID: 2, FileID: FILE_ID },
      ],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(DomainError);
    expect((error as Error).message).toBe('booking ABCD2345 took 0 of its 1 files');
  });
});

describe('applyBookingChange: a price set by hand', () => {
  const desk = (overrides: Partial<ChangeableBooking> = {}) => booking({ partnerId: null, ...overrides });
  const price = (TotalMinor: number, Reason?: string, role: 'owner' | 'staff' = 'staff') => ({
    price: { override: { TotalMinor, Currency: 'EUR', ...(Reason !== undefined ? { Reason } : {}) }, role },
  });

  it('records a discount with its reason, in the history as money', async () => {
    const { store, log } = fakeStore(world());
    const result = await change(store, price(8000, '  regulars  '), operator, desk());
    expect(result.changed).toEqual(['Price']);
    const written = log.written[0]!;
    expect(written.write.price).toEqual({ overrideMinor: 8000, reason: 'regulars' });
    expect(written.history.reason).toBe('regulars');
    expect(written.history.changes.Price).toEqual({ From: { Amount: 9000, Currency: 'EUR' }, To: { Amount: 8000, Currency: 'EUR' } });
  });

  it('refuses a price without a reason, in another currency, above the list price for staff, or on a partner booking', async () => {
    const { store, log } = fakeStore(world());
    await expect(change(store, price(8000), operator, desk())).rejects.toMatchObject({ errors: [{ field: 'PriceOverride.Reason' }] });
    await expect(change(store, price(8000, ' '), operator, desk())).rejects.toMatchObject({ errors: [{ field: 'PriceOverride.Reason' }] });
    await expect(
      change(store, { price: { override: { TotalMinor: 8000, Currency: 'USD', Reason: 'x' }, role: 'owner' } }, operator, desk()),
    ).rejects.toMatchObject({ errors: [{ field: 'PriceOverride.Currency' }] });
    await expect(change(store, price(9500, 'private guide'), operator, desk())).rejects.toMatchObject({ code: 'forbidden' });
    await expect(change(store, price(8000, 'regulars'), operator, booking())).rejects.toMatchObject({ errors: [{ field: 'PriceOverride' }] });
    expect(log.written).toEqual([]);
    expect((await change(store, price(9500, 'private guide', 'owner'), operator, desk())).changed).toEqual(['Price']);
  });

  it('keeps a price set by hand over a move within the activity and drops it with a new party', async () => {
    const { store, log } = fakeStore(world());
    const discounted = desk({ priceOverrideMinor: 8000, priceReason: 'regulars' });
    await change(store, { move: { date: '2026-06-10', time: '11:00' } }, operator, discounted);
    expect(log.written[0]!.write.price).toEqual({ overrideMinor: 8000, reason: 'regulars' });
    await change(store, { participants: 3 }, operator, discounted);
    expect(log.written[1]!.write.price).toEqual({ overrideMinor: null, reason: null });
    expect(log.written[1]!.history.changes.Price).toEqual({ From: { Amount: 8000, Currency: 'EUR' }, To: { Amount: 13500, Currency: 'EUR' } });
    // The list price asked for is no override: no reason needed.
    expect((await change(store, price(9000), operator, desk())).changed).toEqual([]);
  });
});
