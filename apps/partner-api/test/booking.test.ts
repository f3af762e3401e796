// POST booking: the 201 answer and what it writes (booking row, capacity, outbox event), the 409 kinds, the 422
// rules (participants, foreign activities, waiver answers), and a 500 that leaves nothing half-written.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingCreatedPayloadSchema } from '@backbone/contracts';
import { createTestActivity, createTestQuestion, createTestTimeslot, futureDate, request } from '@backbone/testkit';
import type { Activity, WaiverQuestion } from '@backbone/domain';
import { bookingBody, createOperator, databaseFingerprint, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const BOOKING = '/api/v2/ota/partner/booking';
const REFERENCE = /^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/;
const day = futureDate(10);

let op: Operator;
let other: Operator;
let keyId: string;

const book = (body: unknown, key = op.ota, headers: Record<string, string> = {}) => request(server.url, 'POST', BOOKING, { key, body, headers });
const bookedOf = async (activity: Activity, time: string, date = day) =>
  (
    await db.pool.query<{ booked: number }>('SELECT booked FROM timeslots WHERE activity_id = $1 AND local_date = $2 AND local_time = $3', [
      activity.id,
      date,
      time,
    ])
  ).rows[0]!.booked;

beforeAll(async () => {
  op = await createOperator(db.pool, { activity: { maxParticipants: 6 } });
  other = await createOperator(db.pool);
  keyId = (await db.pool.query<{ id: string }>('SELECT id FROM api_keys WHERE account_id = $1 AND scopes = $2', [op.account.id, ['ota']])).rows[0]!.id;
  for (const time of ['08:00', '09:00', '10:00', '11:00', '12:00', '13:00']) await createTestTimeslot(db.pool, op.activity, { date: day, time, capacity: 20 });
  await createTestTimeslot(db.pool, other.activity, { date: day, time: '09:00', capacity: 20 });
});

describe('POST booking: 201', () => {
  it('books and answers the booking', async () => {
    const res = await book(bookingBody(op.activity, { date: day, time: '09:00' }, { Participants: 3 }));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      Reference: expect.stringMatching(REFERENCE),
      Status: 'confirmed',
      ActivityID: op.activity.activityId,
      Date: day,
      Time: '09:00',
      Participants: 3,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+44 20 7946 0958' },
      PaymentReference: 'PAY-123',
      Channel: 'ota',
      Price: { Currency: 'EUR', UnitAmount: 4500, TotalAmount: 13500, AtSale: true },
      CreatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(Math.abs(Date.parse(res.body.CreatedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('takes the places, stores the booking with its payment reference and writes one booking.created event', async () => {
    const before = await bookedOf(op.activity, '10:00');
    const res = await book(bookingBody(op.activity, { date: day, time: '10:00' }, { Participants: 2, PaymentReference: 'psp_abc_42' }));
    expect(res.status).toBe(201);
    expect(await bookedOf(op.activity, '10:00')).toBe(before + 2);

    const { rows: bookings } = await db.pool.query(`SELECT b.*, extract(epoch FROM b.created_at) AS created_epoch FROM bookings b WHERE reference = $1`, [
      res.body.Reference,
    ]);
    expect(bookings).toHaveLength(1);
    const row = bookings[0];
    expect(row).toMatchObject({
      account_id: op.account.id,
      activity_id: op.activity.id,
      channel: 'ota',
      status: 'confirmed',
      participants: 2,
      payment_reference: 'psp_abc_42',
      api_key_id: keyId,
      customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+44 20 7946 0958' },
    });

    const { rows: events } = await db.pool.query(`SELECT * FROM outbox_events WHERE payload->>'Reference' = $1`, [res.body.Reference]);
    expect(events).toHaveLength(1);
    const event = events[0];
    expect(event).toMatchObject({ account_id: op.account.id, type: 'booking.created', sent_at: null });
    expect(event.payload).toEqual({
      EventID: event.event_id,
      AccountID: op.account.id,
      OccurredAt: Math.floor(Number(row.created_epoch)),
      Reference: res.body.Reference,
      ActivityID: op.activity.activityId,
      Date: day,
      Time: '10:00',
      Participants: 2,
      Channel: 'ota',
      PaymentReference: 'psp_abc_42',
      // The partner of the key that booked, and the booking's new status (the booking lifecycle's events carry both).
      PartnerID: (await db.pool.query<{ partner_id: string }>(`SELECT partner_id FROM bookings WHERE reference = $1`, [res.body.Reference])).rows[0]!
        .partner_id,
      Status: 'confirmed',
    });
    // The payload fits the job catalog's schema: every required member, nothing unknown.
    for (const member of bookingCreatedPayloadSchema.required) expect(event.payload).toHaveProperty(member);
    for (const member of Object.keys(event.payload)) expect(Object.keys(bookingCreatedPayloadSchema.properties)).toContain(member);
  });

  it('answers null for an omitted Phone and PaymentReference', async () => {
    const body = bookingBody(op.activity, { date: day, time: '11:00' });
    delete (body as Record<string, unknown>).PaymentReference;
    delete (body.Customer as Record<string, unknown>).Phone;
    const res = await book(body);
    expect(res.status).toBe(201);
    expect(res.body.PaymentReference).toBeNull();
    expect(res.body.Customer.Phone).toBeNull();
    const { rows } = await db.pool.query(`SELECT payload FROM outbox_events WHERE payload->>'Reference' = $1`, [res.body.Reference]);
    expect(rows[0].payload.PaymentReference).toBeNull();
  });

  it('accepts the ActivityID in upper case and answers it in canonical form', async () => {
    const res = await book(bookingBody(op.activity, { date: day, time: '11:00' }, { ActivityID: op.activity.activityId.toUpperCase() }));
    expect(res.status).toBe(201);
    expect(res.body.ActivityID).toBe(op.activity.activityId);
  });

  it('shows the taken places in the availability answers', async () => {
    const before = await request(server.url, 'GET', `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${day}`, { key: op.ota });
    const slot = before.body.find((s: { Time: string }) => s.Time === '12:00');
    await book(bookingBody(op.activity, { date: day, time: '12:00' }, { Participants: 4 }));
    const after = await request(server.url, 'GET', `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${day}`, { key: op.ota });
    expect(after.body.find((s: { Time: string }) => s.Time === '12:00').Available).toBe(slot.Available - 4);
  });

  it('gives unique, non-sequential references', async () => {
    const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 1 });
    await createTestTimeslot(db.pool, activity, { date: day, time: '15:00', capacity: 40 });
    const references: string[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await book(bookingBody(activity, { date: day, time: '15:00' }));
      expect(res.status).toBe(201);
      references.push(res.body.Reference);
    }
    expect(new Set(references).size).toBe(40);
    for (const reference of references) expect(reference).toMatch(REFERENCE);
    // Consecutive bookings share no common prefix pattern: their references differ in more than the last symbol.
    const differingEarly = references.slice(1).filter((r, i) => r.slice(0, 4) !== references[i]!.slice(0, 4)).length;
    expect(differingEarly).toBeGreaterThan(30);
  });

  it('fills a slot to the last place and then refuses with Available 0', async () => {
    const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 5 });
    await createTestTimeslot(db.pool, activity, { date: day, time: '16:00', capacity: 5 });
    expect((await book(bookingBody(activity, { date: day, time: '16:00' }, { Participants: 5 }))).status).toBe(201);
    const full = await book(bookingBody(activity, { date: day, time: '16:00' }));
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 0 });
    expect(full.body.detail).toMatch(/no places are left/);
  });
});

describe('POST booking: 409', () => {
  let activity: Activity;
  beforeAll(async () => {
    activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 10 });
    await createTestTimeslot(db.pool, activity, { date: day, time: '09:00', capacity: 6, booked: 4 });
    await createTestTimeslot(db.pool, activity, { date: day, time: '10:00', capacity: 6, status: 'closed' });
    await createTestTimeslot(db.pool, activity, { date: futureDate(0), time: '00:00', capacity: 6, startsAt: new Date(Date.now() - 60_000) });
  });

  it('refuses more participants than places left, saying how many are left', async () => {
    const before = await databaseFingerprint(db.pool);
    const res = await book(bookingBody(activity, { date: day, time: '09:00' }, { Participants: 3 }));
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, title: 'Conflict', status: 409, instance: BOOKING, Available: 2 });
    expect(res.body.detail).toMatch(/only 2 places are left/);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it.each([
    ['no timeslot at that time', () => ({ date: day, time: '09:15' }), /no timeslot/],
    ['no timeslot on that date', () => ({ date: futureDate(40), time: '09:00' }), /no timeslot/],
    ['a closed timeslot', () => ({ date: day, time: '10:00' }), /closed/],
    ['a timeslot that has started', () => ({ date: futureDate(0), time: '00:00' }), /already started/],
  ])('answers /timeslot-unavailable for %s', async (_label, slot, detail) => {
    const before = await databaseFingerprint(db.pool);
    const res = await book(bookingBody(activity, slot()));
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/timeslot-unavailable`, title: 'Conflict', status: 409, instance: BOOKING });
    expect(res.body.detail).toMatch(detail);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});

describe('POST booking: 422 against the activity', () => {
  it('refuses more participants than the activity allows per booking, before looking at capacity', async () => {
    const activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 4 });
    await createTestTimeslot(db.pool, activity, { date: day, time: '09:00', capacity: 2 });
    const before = await databaseFingerprint(db.pool);
    const res = await book(bookingBody(activity, { date: day, time: '09:00' }, { Participants: 5 }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, errors: [{ field: 'Participants' }] });
    expect(res.body.detail).toMatch(/Participants must be at most 4/);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it.each([
    ['of another account', () => other.activity],
    ['unknown', () => ({ ...op.activity, activityId: randomUUID() })],
  ])('refuses an ActivityID that is %s with 422 and books nothing', async (_label, activity) => {
    const before = await databaseFingerprint(db.pool);
    const res = await book(bookingBody(activity(), { date: day, time: '09:00' }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, errors: [{ field: 'ActivityID' }] });
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('refuses inactive activities and activities not in the shopfront', async () => {
    for (const state of [{ active: false }, { inShopfront: false }]) {
      const activity = await createTestActivity(db.pool, op.account.id, state);
      await createTestTimeslot(db.pool, activity, { date: day, time: '09:00' });
      const res = await book(bookingBody(activity, { date: day, time: '09:00' }));
      expect(res.status).toBe(422);
      expect(await bookedOf(activity, '09:00')).toBe(0);
    }
  });
});

describe('POST booking: waiver answers', () => {
  let activity: Activity;
  const q: Record<string, WaiverQuestion> = {};
  let foreignQuestion: WaiverQuestion;

  beforeAll(async () => {
    activity = await createTestActivity(db.pool, op.account.id, { maxParticipants: 4 });
    await createTestTimeslot(db.pool, activity, { date: day, time: '09:00', capacity: 200 });
    const make = (name: string, input: Parameters<typeof createTestQuestion>[2]) =>
      createTestQuestion(db.pool, activity, input).then((question) => (q[name] = question));
    await make('file', { question: 'Signed waiver', type: 'file', required: true });
    await make('accept', { question: 'I accept', type: 'checkbox', required: true });
    await make('swim', { question: 'Swimming level', type: 'select', required: true, options: ['None', 'Good'], perParticipant: true });
    await make('text', { question: 'Notes', type: 'text' });
    await make('area', { question: 'Medical', type: 'textarea' });
    await make('multi', { question: 'Experience', type: 'multiselect', options: ['Boulder', 'Lead'] });
    await make('date', { question: 'Birthday', type: 'date' });
    await make('email', { question: 'Emergency email', type: 'email' });
    await make('phone', { question: 'Emergency phone', type: 'phone' });
    await make('number', { question: 'Shoe size', type: 'number' });
    await make('signature', { question: 'Signature', type: 'signature' });
    foreignQuestion = await createTestQuestion(db.pool, other.activity, { question: 'Not yours' });
  });

  const required = (participants = 1) => [
    { QuestionID: q.file!.id, Value: 'https://files.example.com/waiver-123.pdf' },
    { QuestionID: q.accept!.id, Value: true },
    ...Array.from({ length: participants }, (_, i) => ({ QuestionID: q.swim!.id, Participant: i + 1, Value: 'Good' })),
  ];
  const attempt = (answers: unknown, participants = 1) =>
    book(bookingBody(activity, { date: day, time: '09:00' }, { Participants: participants, Answers: answers }));

  it('books without answers: the partner may collect the waiver later', async () => {
    expect((await attempt(undefined)).status).toBe(201);
  });

  it('books with every question answered in its type and stores the answers with their questions', async () => {
    const answers = [
      ...required(2),
      { QuestionID: q.text!.id, Value: 'Vegetarian' },
      { QuestionID: q.area!.id, Value: 'Line one\nLine two' },
      { QuestionID: q.multi!.id, Value: ['Boulder', 'Lead'] },
      { QuestionID: q.date!.id, Value: '1990-02-28' },
      { QuestionID: q.email!.id, Value: 'help@example.org' },
      { QuestionID: q.phone!.id, Value: '+351 912 345 678' },
      { QuestionID: q.number!.id, Value: 42.5 },
      { QuestionID: q.signature!.id, Value: 'Ada Lovelace' },
    ];
    const res = await attempt(answers, 2);
    expect(res.status).toBe(201);
    const { rows } = await db.pool.query('SELECT answers FROM bookings WHERE reference = $1', [res.body.Reference]);
    expect(rows[0].answers).toHaveLength(answers.length);
    expect(rows[0].answers).toContainEqual({ QuestionID: q.swim!.id, Question: 'Swimming level', Type: 'select', Participant: 2, Value: 'Good' });
    expect(rows[0].answers).toContainEqual({
      QuestionID: q.multi!.id,
      Question: 'Experience',
      Type: 'multiselect',
      Participant: null,
      Value: ['Boulder', 'Lead'],
    });
  });

  it.each([
    ['an unknown question', () => [...required(), { QuestionID: 987654, Value: 'x' }], 'Answers[3].QuestionID'],
    ['a question of another account', () => [...required(), { QuestionID: foreignQuestion.id, Value: 'x' }], 'Answers[3].QuestionID'],
    ['text that is a number', () => [...required(), { QuestionID: q.text!.id, Value: 5 }], 'Answers[3].Value'],
    ['a select value outside its options', () => [...required().slice(0, 2), { QuestionID: q.swim!.id, Participant: 1, Value: 'Olympic' }], 'Answers[2].Value'],
    ['a multiselect given a string', () => [...required(), { QuestionID: q.multi!.id, Value: 'Boulder' }], 'Answers[3].Value'],
    ['a multiselect with an unknown option', () => [...required(), { QuestionID: q.multi!.id, Value: ['Boulder', 'Ice'] }], 'Answers[3].Value'],
    ['a multiselect repeating an option', () => [...required(), { QuestionID: q.multi!.id, Value: ['Lead', 'Lead'] }], 'Answers[3].Value'],
    [
      'a checkbox given "yes"',
      () => [...required().filter((a) => a.QuestionID !== q.accept!.id), { QuestionID: q.accept!.id, Value: 'yes' }],
      'Answers[2].Value',
    ],
    ['a number given as a string', () => [...required(), { QuestionID: q.number!.id, Value: '42' }], 'Answers[3].Value'],
    ['a date that does not exist', () => [...required(), { QuestionID: q.date!.id, Value: '2026-02-30' }], 'Answers[3].Value'],
    ['an invalid email', () => [...required(), { QuestionID: q.email!.id, Value: 'not-an-email' }], 'Answers[3].Value'],
    ['an invalid phone', () => [...required(), { QuestionID: q.phone!.id, Value: 'call me' }], 'Answers[3].Value'],
    ['a file answer that is not a URL', () => [{ QuestionID: q.file!.id, Value: 'waiver.pdf' }, ...required().slice(1)], 'Answers[0].Value'],
    [
      'a file answer with another scheme',
      () => [{ QuestionID: q.file!.id, Value: 'ftp://files.example.com/w.pdf' }, ...required().slice(1)],
      'Answers[0].Value',
    ],
    ['a signature that is not text', () => [...required(), { QuestionID: q.signature!.id, Value: true }], 'Answers[3].Value'],
    ['no answers although questions are required', () => [], 'Answers'],
    ['the required file upload missing', () => required().slice(1), 'Answers'],
    ['the required file upload blank', () => [{ QuestionID: q.file!.id, Value: '  ' }, ...required().slice(1)], 'Answers'],
    [
      'a required checkbox not ticked',
      () => [...required().filter((a) => a.QuestionID !== q.accept!.id), { QuestionID: q.accept!.id, Value: false }],
      'Answers',
    ],
    [
      'a per-participant question answered without Participant',
      () => [...required().slice(0, 2), { QuestionID: q.swim!.id, Value: 'Good' }],
      'Answers[2].Participant',
    ],
    [
      'a per-booking question answered with Participant',
      () => [...required(), { QuestionID: q.text!.id, Participant: 1, Value: 'x' }],
      'Answers[3].Participant',
    ],
    ['a Participant beyond the party', () => [...required(), { QuestionID: q.swim!.id, Participant: 2, Value: 'Good' }], 'Answers[3].Participant'],
    ['a question answered twice', () => [...required(), { QuestionID: q.file!.id, Value: 'https://files.example.com/other.pdf' }], 'Answers[3].QuestionID'],
  ])('refuses %s with 422 naming the answer', async (_label, answers, field) => {
    const before = await databaseFingerprint(db.pool);
    const res = await attempt(answers());
    expect(res.status).toBe(422);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/validation`);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(res.body.detail).toContain(field === 'Answers' ? 'required question' : field);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('requires a per-participant required question for every participant', async () => {
    const res = await attempt(required(2).slice(0, 3), 2);
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/for participant 2/);
  });

  it('lets optional questions stay blank', async () => {
    const res = await attempt([
      ...required(),
      { QuestionID: q.text!.id, Value: '' },
      { QuestionID: q.multi!.id, Value: [] },
      { QuestionID: q.email!.id, Value: '' },
    ]);
    expect(res.status).toBe(201);
  });
});

describe('POST booking: 500', () => {
  it('answers a database failure with a problem that carries only the request id, and writes nothing', async () => {
    const activity = await createTestActivity(db.pool, op.account.id);
    await createTestTimeslot(db.pool, activity, { date: day, time: '09:00' });
    const before = await databaseFingerprint(db.pool);
    await db.pool.query('ALTER TABLE outbox_events RENAME TO outbox_events_away');
    try {
      const res = await book(bookingBody(activity, { date: day, time: '09:00' }), op.ota, { 'x-request-id': 'trace-500-test' });
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        type: `${PROBLEM_BASE}/internal`,
        title: 'Internal Server Error',
        status: 500,
        instance: BOOKING,
        requestId: 'trace-500-test',
      });
      expect(res.body.detail).toContain('trace-500-test');
      expect(res.text).not.toMatch(/outbox|relation|SELECT|INSERT|at .*\.ts/);
    } finally {
      await db.pool.query('ALTER TABLE outbox_events_away RENAME TO outbox_events');
    }
    expect(await bookedOf(activity, '09:00')).toBe(0);
    const after = await databaseFingerprint(db.pool);
    expect(after).toEqual(before);
    // And the same request succeeds once the database is whole again.
    expect((await book(bookingBody(activity, { date: day, time: '09:00' }))).status).toBe(201);
  });
});
