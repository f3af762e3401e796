// The day's manifest through HTTP: the date's timeslots by time then activity name, only live bookings (holds not yet
// lapsed and confirmed), partners, waivers, check-ins and totals; the activity filter, the tenant wall, bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestQuestion, createTestTimeslot, request } from '@backbone/testkit';
import { createApiKey } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createBooking } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let alpha: Activity;
let staff: SessionClient;
const day = dayFromNow(9);
const refs: Record<string, string> = {};

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  alpha = await createTestActivity(db.pool, operator.account.id, { timeZone: 'Europe/Lisbon', name: 'Alpha canyoning', priceMinor: 3000 });
  await createSlot(db.pool, operator, day, '10:00', 6);
  await createSlot(db.pool, operator, day, '10:00', 8, alpha);
  await createSlot(db.pool, operator, day, '08:00', 4, alpha);
  await createSlot(db.pool, operator, dayFromNow(10), '10:00', 6);
  await createSlot(db.pool, other, day, '10:00', 6);
  const partnerKey = await createApiKey(db.pool, operator.account.id, { name: 'GetYourGuide', scopes: ['ota'] });
  const made = await createBooking(
    { pool: db.pool },
    {
      accountId: operator.account.id,
      apiKeyId: partnerKey.id,
      partnerId: partnerKey.partnerId,
      hold: null,
      channel: 'ota',
      activityId: operator.activity.activityId,
      date: day,
      time: '10:00',
      participants: 2,
      customer: { FirstName: 'João', LastName: 'Pereira', Email: 'joao@example.com' },
      paymentReference: null,
      answers: undefined,
    },
  );
  refs.partner = made.value.Reference;
  refs.walkIn = (await book(db.pool, operator, { date: day, time: '10:00' }, { channel: 'pos', participants: 1, firstName: 'Walk' })).Reference;
  refs.held = (await book(db.pool, operator, { date: day, time: '10:00' }, { participants: 1, firstName: 'Held' })).Reference;
  refs.lapsed = (await book(db.pool, operator, { date: day, time: '10:00' }, { participants: 1, firstName: 'Lapsed' })).Reference;
  refs.cancelled = (await book(db.pool, operator, { date: day, time: '10:00' }, { participants: 1, firstName: 'Gone' })).Reference;
  refs.alpha = (await book(db.pool, operator, { date: day, time: '10:00' }, { activity: alpha, participants: 3, firstName: 'Al' })).Reference;
  refs.tomorrow = (await book(db.pool, operator, { date: dayFromNow(10), time: '10:00' }, { firstName: 'Tomorrow' })).Reference;
  await book(db.pool, other, { date: day, time: '10:00' }, { firstName: 'Stranger' });
  await db.pool.query(`UPDATE bookings SET status = 'on_hold', expires_at = now() + interval '1 hour' WHERE reference = $1`, [refs.held]);
  await db.pool.query(`UPDATE bookings SET status = 'on_hold', expires_at = now() - interval '1 minute' WHERE reference = $1`, [refs.lapsed]);
  await staff.send('POST', `/api/v2/operator/bookings/${refs.cancelled}/cancel`);
  await staff.send('POST', `/api/v2/operator/bookings/${refs.walkIn}/check-in`);
  await staff.send('PATCH', `/api/v2/operator/bookings/${refs.walkIn}`, { Note: 'Pays at the desk' });
  // A required question per participant: answered for both of the partner's party, by no one else.
  const question = await createTestQuestion(db.pool, operator.activity, { question: 'Can you swim?', type: 'checkbox', required: true, perParticipant: true });
  await db.pool.query(`UPDATE bookings SET answers = $2 WHERE reference = $1`, [
    refs.partner,
    JSON.stringify([1, 2].map((n) => ({ QuestionID: question.id, Question: 'Can you swim?', Type: 'checkbox', Participant: n, Value: true }))),
  ]);
});

describe('the manifest', () => {
  it("lists the day's timeslots by time then activity name, each with its live bookings and totals", async () => {
    const answer = await staff.send('GET', `/api/v2/operator/manifest?Date=${day}`);
    expect(answer.status, answer.text).toBe(200);
    const body = answer.body;
    expect(body.Date).toBe(day);
    expect(body.Timeslots.map((t: { Time: string; ActivityName: string }) => `${t.Time} ${t.ActivityName}`)).toEqual([
      '08:00 Alpha canyoning',
      '10:00 Alpha canyoning',
      `10:00 ${operator.activity.name}`,
    ]);
    const [early, alphaTen, kayak] = body.Timeslots;
    expect(early).toMatchObject({ Capacity: 4, Booked: 0, Closed: false, Bookings: [], Totals: { Bookings: 0, Participants: 0, CheckedIn: 0 } });
    expect(alphaTen.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([refs.alpha]);
    expect(alphaTen.Bookings[0].Price).toEqual({ UnitPriceMinor: 3000, Currency: 'EUR', TotalMinor: 9000, ListTotalMinor: 9000, Reason: null, Source: 'sale' });
    expect(kayak.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([refs.partner, refs.walkIn, refs.held]);
    expect(kayak.StartsAt).toMatch(new RegExp(`^${day}T10:00:00[+-]\\d\\d:\\d\\d$`));
    expect(kayak).toMatchObject({ Capacity: 6, Booked: 4, Totals: { Bookings: 3, Participants: 4, CheckedIn: 1 } });
    const [partner, walkIn, held] = kayak.Bookings;
    expect(partner).toMatchObject({
      Status: 'confirmed',
      Channel: 'ota',
      Participants: 2,
      Customer: { FirstName: 'João', LastName: 'Pereira' },
      Partner: { Name: 'GetYourGuide' },
      WaiversComplete: true,
      CheckedInAt: null,
    });
    expect(walkIn).toMatchObject({ Channel: 'pos', Partner: null, WaiversComplete: false, Note: 'Pays at the desk' });
    expect(walkIn.CheckedInAt).not.toBeNull();
    expect(held).toMatchObject({ Status: 'on_hold', WaiversComplete: false });
    expect(body.Totals).toEqual({ Bookings: 4, Participants: 7, CheckedIn: 1 });
    expect(answer.text).not.toContain('Stranger');
  });

  it('keeps to one activity when asked, and is empty for a day without timeslots or an unknown activity', async () => {
    const one = await staff.send('GET', `/api/v2/operator/manifest?Date=${day}&ActivityID=${alpha.activityId.toUpperCase()}`);
    expect(one.body.Timeslots.map((t: { Time: string }) => t.Time)).toEqual(['08:00', '10:00']);
    expect(one.body.Totals).toEqual({ Bookings: 1, Participants: 3, CheckedIn: 0 });
    const empty = await staff.send('GET', `/api/v2/operator/manifest?Date=${dayFromNow(30)}`);
    expect(empty.body).toEqual({ Date: dayFromNow(30), Timeslots: [], Totals: { Bookings: 0, Participants: 0, CheckedIn: 0 } });
    const foreign = await staff.send('GET', `/api/v2/operator/manifest?Date=${day}&ActivityID=${other.activity.activityId}`);
    expect(foreign.body.Timeslots).toEqual([]);
  });

  it('counts waivers complete when each required question is answered once, or once per participant of the party as it is now', async () => {
    const waiverDay = dayFromNow(11);
    const activity = await createTestActivity(db.pool, operator.account.id, { timeZone: 'Europe/Lisbon', name: 'Waivers' });
    await createTestTimeslot(db.pool, activity, { date: waiverDay, time: '09:00', capacity: 20 });
    const once = await createTestQuestion(db.pool, activity, { question: 'Any allergies?', type: 'text', required: true, perParticipant: false });
    const each = await createTestQuestion(db.pool, activity, { question: 'Can you swim?', type: 'checkbox', required: true, perParticipant: true });
    await createTestQuestion(db.pool, activity, { question: 'How did you hear of us?', type: 'text', required: false, perParticipant: false });
    const onceAnswer = { QuestionID: once.id, Question: 'Any allergies?', Type: 'text', Participant: null, Value: 'None' };
    const swims = (n: number) => ({ QuestionID: each.id, Question: 'Can you swim?', Type: 'checkbox', Participant: n, Value: true });
    const cases: Record<string, { participants: number; answers: unknown[]; complete: boolean }> = {
      Everything: { participants: 3, answers: [onceAnswer, swims(1), swims(2), swims(3)], complete: true },
      NoOne: { participants: 2, answers: [], complete: false },
      OnlyOnce: { participants: 2, answers: [onceAnswer], complete: false },
      MissingSecond: { participants: 2, answers: [onceAnswer, swims(1), swims(3)], complete: false },
      // The party was 3 and is 2 now: participant 3's answer does not stand in for participant 2's.
      Shrunk: { participants: 2, answers: [onceAnswer, swims(1), swims(3)], complete: false },
      ShrunkAnswered: { participants: 2, answers: [onceAnswer, swims(1), swims(2), swims(3)], complete: true },
      // Answered per participant while the question asked so; asked once now: answered.
      OnceAnsweredTwice: { participants: 1, answers: [{ ...onceAnswer, Participant: 1 }, { ...onceAnswer, Participant: 2 }, swims(1)], complete: true },
    };
    for (const [name, wanted] of Object.entries(cases)) {
      const made = await book(db.pool, operator, { date: waiverDay, time: '09:00' }, { activity, participants: wanted.participants, firstName: name });
      await db.pool.query(`UPDATE bookings SET answers = $2 WHERE reference = $1`, [made.Reference, JSON.stringify(wanted.answers)]);
    }
    const answer = await staff.send('GET', `/api/v2/operator/manifest?Date=${waiverDay}&ActivityID=${activity.activityId}`);
    expect(answer.status, answer.text).toBe(200);
    const shown = Object.fromEntries(
      answer.body.Timeslots[0].Bookings.map((b: { Customer: { FirstName: string }; WaiversComplete: boolean }) => [b.Customer.FirstName, b.WaiversComplete]),
    );
    expect(shown).toEqual(Object.fromEntries(Object.entries(cases).map(([name, wanted]) => [name, wanted.complete])));
    // In the order they were made.
    expect(answer.body.Timeslots[0].Bookings.map((b: { Customer: { FirstName: string } }) => b.Customer.FirstName)).toEqual(Object.keys(cases));
  });

  it('shows a check-in at the instant the booking records it', async () => {
    const answer = await staff.send('GET', `/api/v2/operator/manifest?Date=${day}`);
    const walkIn = answer.body.Timeslots.flatMap((t: { Bookings: { Reference: string }[] }) => t.Bookings).find(
      (b: { Reference: string }) => b.Reference === refs.walkIn,
    );
    const { rows } = await db.pool.query<{ checked_in_at: Date }>(`SELECT checked_in_at FROM bookings WHERE reference = $1`, [refs.walkIn]);
    expect(walkIn.CheckedInAt).toBe(rows[0]!.checked_in_at.toISOString());
  });

  it('checks in part of a party (3 of 4), then the rest; the manifest counts who arrived, the history each count', async () => {
    const date = dayFromNow(11);
    await createSlot(db.pool, operator, date, '09:00', 8);
    const { Reference } = await book(db.pool, operator, { date, time: '09:00' }, { channel: 'pos', participants: 4 });
    const checkIn = (body?: object) => staff.send('POST', `/api/v2/operator/bookings/${Reference}/check-in`, body);
    const counted = async () => {
      const slot = (await staff.send('GET', `/api/v2/operator/manifest?Date=${date}`)).body.Timeslots[0];
      return { booking: slot.Bookings[0].CheckedInParticipants, slot: slot.Totals.CheckedIn };
    };
    const three = await checkIn({ Participants: 3 });
    expect(three.status, three.text).toBe(200);
    expect(three.body).toMatchObject({ CheckedInParticipants: 3, Participants: 4 });
    const firstTime = three.body.CheckedInAt;
    expect(await counted()).toEqual({ booking: 3, slot: 3 });
    // More than the party: refused, nothing changed.
    const five = await checkIn({ Participants: 5 });
    expect(five.status).toBe(422);
    expect(five.body.errors).toEqual([expect.objectContaining({ field: 'Participants' })]);
    expect(await counted()).toEqual({ booking: 3, slot: 3 });
    // The fourth arrives: the first time stays, the count is the whole party.
    const all = await checkIn({ Participants: 4 });
    expect(all.body).toMatchObject({ CheckedInParticipants: 4, CheckedInAt: firstTime });
    expect(await counted()).toEqual({ booking: 4, slot: 4 });
    const history = (await staff.send('GET', `/api/v2/operator/bookings/${Reference}/history`)).body.Items.filter(
      (i: { Action: string }) => i.Action === 'checked-in',
    );
    expect(history.map((i: { Changes: unknown }) => i.Changes)).toEqual([{ CheckedIn: { From: 0, To: 3 } }, { CheckedIn: { From: 3, To: 4 } }]);
    // The same count again changes nothing; without a body the whole party, as before.
    await checkIn({ Participants: 4 });
    await checkIn();
    expect(
      (await staff.send('GET', `/api/v2/operator/bookings/${Reference}/history`)).body.Items.filter((i: { Action: string }) => i.Action === 'checked-in'),
    ).toHaveLength(2);
    await staff.send('DELETE', `/api/v2/operator/bookings/${Reference}/check-in`);
    expect(await counted()).toEqual({ booking: 0, slot: 0 });
    const again = await checkIn();
    expect(again.body).toMatchObject({ CheckedInParticipants: 4 });
    expect((await checkIn({ Participants: 0 })).status).toBe(422);
  });

  it.each([[''], ['?Date=2026-02-30'], ['?Date=tomorrow'], [`?Date=${day}&ActivityID=nope`], [`?Date=${day}&Extra=1`]])('refuses %s (422)', async (query) => {
    const answer = await request(server.url, 'GET', `/api/v2/operator/manifest${query}`, { key: operator.key });
    expect(answer.status, answer.text).toBe(422);
  });
});
