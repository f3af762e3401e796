// The operator's changes to a booking through HTTP: cancel (idempotent, any time), reschedule, party/customer/note
// changes at the capacity edge, check-in and its undo; races of many reschedules and bookings into one small slot;
// the history rows and events each change leaves, with the right actor; and the tenant wall.
import { beforeAll, describe, expect, it } from 'vitest';
import { request, waitFor } from '@backbone/testkit';
import { createApiKey } from '@backbone/db';
import { confirmBooking, createBooking } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator } from './support.js';
import type { SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let staff: SessionClient;
const day = dayFromNow(6);
const path = (reference: string, rest = '') => `/api/v2/operator/bookings/${reference}${rest}`;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
});

async function slotState(id: number) {
  const { rows } = await db.pool.query<{ booked: number; live: string }>(
    `SELECT t.booked, (SELECT coalesce(sum(participants), 0) FROM bookings b
                        WHERE b.timeslot_id = t.id AND (b.status = 'confirmed' OR (b.status = 'on_hold' AND b.expires_at > now()))) AS live
       FROM timeslots t WHERE t.id = $1`,
    [id],
  );
  return { booked: rows[0]!.booked, live: Number(rows[0]!.live) };
}

async function history(reference: string) {
  const { rows } = await db.pool.query<{ action: string; actor_kind: string; user_id: string | null; api_key_id: string | null; reason: string | null }>(
    `SELECT h.action, h.actor_kind, h.user_id, h.api_key_id, h.reason, h.changes FROM booking_history h JOIN bookings b ON b.id = h.booking_id
      WHERE b.reference = $1 ORDER BY h.id`,
    [reference],
  );
  return rows;
}

async function events(reference: string) {
  const { rows } = await db.pool.query<{ type: string; payload: Record<string, unknown> }>(
    `SELECT type, payload FROM outbox_events WHERE payload->>'Reference' = $1 ORDER BY id`,
    [reference],
  );
  return rows;
}

async function userId(email: string) {
  return (await db.pool.query<{ id: string }>('SELECT id FROM operator_users WHERE email = $1', [email])).rows[0]!.id;
}

describe('cancel', () => {
  it('cancels with a reason at any time, frees the places once, and answers a repeat unchanged', async () => {
    const slot = await createSlot(db.pool, operator, day, '08:00', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '08:00' }, { participants: 3 });
    const first = await staff.send('POST', path(Reference, '/cancel'), { Reason: 'Storm warning' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ Reference, Status: 'cancelled', CancellationReason: 'Storm warning', Participants: 3 });
    expect(first.body.Price).toEqual({ UnitPriceMinor: 4500, Currency: 'EUR', TotalMinor: 13500, ListTotalMinor: 13500, Reason: null, Source: 'sale' });
    const again = await staff.send('POST', path(Reference, '/cancel'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await slotState(slot.id)).toEqual({ booked: 0, live: 0 });
    expect((await events(Reference)).map((e) => e.type)).toEqual(['booking.created', 'booking.cancelled']);
    const rows = await history(Reference);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'cancelled', actor_kind: 'operator', user_id: await userId(operator.staff.email), reason: 'Storm warning' });
  });

  it('is not bound by the partner cutoff: a started slot can be cancelled', async () => {
    const slot = await createSlot(db.pool, operator, dayFromNow(-1), '09:00', 10);
    await db.pool.query('UPDATE timeslots SET booked = 1 WHERE id = $1', [slot.id]);
    const { rows } = await db.pool.query<{ reference: string }>(
      `INSERT INTO bookings (account_id, activity_id, timeslot_id, reference, participants, customer, channel, status)
       VALUES ($1, $2, $3, 'PAST-2222', 1, '{"FirstName":"Old","LastName":"Guest","Email":"old@example.com"}', 'online', 'confirmed') RETURNING reference`,
      [operator.account.id, operator.activity.id, slot.id],
    );
    const answer = await staff.send('POST', path(rows[0]!.reference, '/cancel'), { Reason: 'No-show' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.Status).toBe('cancelled');
  });

  it('replays an Idempotency-Key with the same answer and cancels once', async () => {
    await createSlot(db.pool, operator, day, '08:30', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '08:30' });
    const headers = { 'idempotency-key': `cancel-${Reference}` };
    const first = await staff.send('POST', path(Reference, '/cancel'), { Reason: 'Ill' }, headers);
    const replay = await staff.send('POST', path(Reference, '/cancel'), { Reason: 'Ill' }, headers);
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.Status).toBe('cancelled');
    const other = await staff.send('POST', path(Reference, '/cancel'), { Reason: 'Something else' }, headers);
    expect(other.status).toBe(422);
    expect((await events(Reference)).filter((e) => e.type === 'booking.cancelled')).toHaveLength(1);
  });
});

describe('reschedule', () => {
  it('moves the booking, frees the old places, takes the new, and says so in an event and the history', async () => {
    const from = await createSlot(db.pool, operator, day, '10:00', 10);
    const to = await createSlot(db.pool, operator, day, '12:00', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '10:00' }, { participants: 2 });
    const answer = await staff.send('POST', path(Reference, '/reschedule'), { Date: day, Time: '12:00' });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ Reference, Status: 'confirmed', Date: day, Time: '12:00', Participants: 2 });
    expect(await slotState(from.id)).toEqual({ booked: 0, live: 0 });
    expect(await slotState(to.id)).toEqual({ booked: 2, live: 2 });
    const updated = (await events(Reference)).filter((e) => e.type === 'booking.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.payload).toMatchObject({ Time: '12:00', Changed: ['Time'], Previous: { Date: day, Time: '10:00' } });
    expect(await history(Reference)).toMatchObject([{ action: 'rescheduled', actor_kind: 'operator', user_id: await userId(operator.staff.email) }]);
  });

  it("moves the booking to another activity of the account, at that activity's price; never to another account's", async () => {
    const { createTestActivity } = await import('@backbone/testkit');
    const sunset = await createTestActivity(db.pool, operator.account.id, {
      timeZone: 'Europe/Lisbon',
      name: 'Sunset paddle',
      priceMinor: 9900,
      inShopfront: false,
    });
    const from = await createSlot(db.pool, operator, day, '17:30', 10);
    const to = await createSlot(db.pool, operator, day, '19:00', 10, sunset);
    await createSlot(db.pool, other, day, '19:00', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '17:30' }, { participants: 2 });
    const elsewhere = await staff.send('POST', path(Reference, '/reschedule'), { Date: day, Time: '19:00', ActivityID: other.activity.activityId });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors).toEqual([expect.objectContaining({ field: 'ActivityID' })]);
    expect(await slotState(from.id)).toEqual({ booked: 2, live: 2 });
    const moved = await staff.send('POST', path(Reference, '/reschedule'), { Date: day, Time: '19:00', ActivityID: sunset.activityId });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({
      ActivityID: sunset.activityId,
      ActivityName: 'Sunset paddle',
      Time: '19:00',
      Participants: 2,
      Price: { UnitPriceMinor: 9900, TotalMinor: 19800, Currency: 'EUR' },
    });
    expect(await slotState(from.id)).toEqual({ booked: 0, live: 0 });
    expect(await slotState(to.id)).toEqual({ booked: 2, live: 2 });
    const updated = (await events(Reference)).filter((e) => e.type === 'booking.updated');
    expect(updated.at(-1)!.payload).toMatchObject({ Changed: ['ActivityID', 'Time'] });
  });

  it('answers 404 for no such slot, 409 for a full one and for a cancelled booking, and changes nothing', async () => {
    const from = await createSlot(db.pool, operator, day, '13:00', 10);
    const full = await createSlot(db.pool, operator, day, '14:00', 2);
    await book(db.pool, operator, { date: day, time: '14:00' }, { participants: 2 });
    const { Reference } = await book(db.pool, operator, { date: day, time: '13:00' }, { participants: 1 });
    const missing = await staff.send('POST', path(Reference, '/reschedule'), { Date: day, Time: '23:45' });
    expect(missing.status).toBe(404);
    const noRoom = await staff.send('POST', path(Reference, '/reschedule'), { Date: day, Time: '14:00' });
    expect(noRoom.status).toBe(409);
    expect(noRoom.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 0 });
    expect(await slotState(from.id)).toEqual({ booked: 1, live: 1 });
    expect(await slotState(full.id)).toEqual({ booked: 2, live: 2 });
    await staff.send('POST', path(Reference, '/cancel'));
    const cancelled = await staff.send('POST', path(Reference, '/reschedule'), { Date: day, Time: '14:00' });
    expect(cancelled.status).toBe(409);
    expect(cancelled.body.type).toBe(`${PROBLEM_BASE}/invalid-transition`);
    expect(await history(Reference)).toMatchObject([{ action: 'cancelled' }]);
  });

  it('a reschedule that waited for the lock of a booking another reschedule moved finds it moved, never missing', async () => {
    await createSlot(db.pool, operator, day, '18:00', 10);
    const to = await createSlot(db.pool, operator, day, '19:00', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '18:00' });
    // Hold the booking's row lock so that both reschedules queue behind it, then let them go one after the other: the
    // second one's lock wait ends on a booking whose timeslot changed meanwhile.
    const holder = await db.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM bookings WHERE reference = $1 FOR UPDATE', [Reference]);
      const { rows } = await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Statements waiting on the holder, or on one that waits on it.
      const waiting = async () =>
        (
          await db.pool.query(
            `SELECT 1 FROM pg_stat_activity a
              WHERE $1 = ANY(pg_blocking_pids(a.pid))
                 OR EXISTS (SELECT 1 FROM pg_stat_activity b WHERE $1 = ANY(pg_blocking_pids(b.pid)) AND b.pid = ANY(pg_blocking_pids(a.pid)))`,
            [rows[0]!.pid],
          )
        ).rowCount;
      const move = () => request(server.url, 'POST', path(Reference, '/reschedule'), { key: operator.key, body: { Date: day, Time: '19:00' } });
      const first = move();
      await waitFor('the first reschedule waiting on the lock', async () => (await waiting()) === 1);
      const second = move();
      await waitFor('both reschedules waiting on the lock', async () => (await waiting()) === 2);
      await holder.query('COMMIT');
      const answers = await Promise.all([first, second]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      for (const answer of answers) expect(answer.body).toMatchObject({ Reference, Time: '19:00' });
    } finally {
      holder.release();
    }
    expect(await slotState(to.id)).toEqual({ booked: 1, live: 1 });
    expect((await history(Reference)).filter((h) => h.action === 'rescheduled')).toHaveLength(1);
  });

  it('never oversells a small slot under many concurrent reschedules and bookings; the old slot is freed exactly once', async () => {
    const from = await createSlot(db.pool, operator, day, '15:00', 100);
    const small = await createSlot(db.pool, operator, day, '16:00', 5);
    const moving = [];
    for (let i = 0; i < 12; i++) moving.push((await book(db.pool, operator, { date: day, time: '15:00' })).Reference);
    const admin = { key: operator.key };
    const results = await Promise.all([
      // Each booking asked to move twice at once (a double click): one move, one unchanged answer or a refusal.
      ...moving.flatMap((reference) =>
        [0, 1].map(() =>
          request(server.url, 'POST', path(reference, '/reschedule'), { ...admin, body: { Date: day, Time: '16:00' } }).then((r) => ({ kind: 'move', r })),
        ),
      ),
      ...Array.from({ length: 6 }, () =>
        book(db.pool, operator, { date: day, time: '16:00' }, { channel: 'ota' }).then(
          () => ({ kind: 'book', r: { status: 201 } }),
          (error: { code?: string }) => ({ kind: 'book', r: { status: error.code === 'insufficient-capacity' ? 409 : 500 } }),
        ),
      ),
    ]);
    for (const { r } of results) expect([200, 201, 409]).toContain(r.status);
    const smallState = await slotState(small.id);
    const fromState = await slotState(from.id);
    expect(smallState.booked).toBeLessThanOrEqual(5);
    expect(smallState).toEqual({ booked: smallState.live, live: smallState.live });
    expect(fromState).toEqual({ booked: fromState.live, live: fromState.live });
    expect(smallState.booked + fromState.booked).toBe(12 + results.filter((x) => x.kind === 'book' && x.r.status === 201).length);
    const { rows } = await db.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM booking_history h JOIN bookings b ON b.id = h.booking_id WHERE b.reference = ANY($1) AND h.action = 'rescheduled'`,
      [moving],
    );
    expect(Number(rows[0]!.n)).toBe(12 - fromState.booked);
  });
});

describe('change', () => {
  it('grows the party only while the slot has room, shrinks it at once, and edits the customer and note', async () => {
    const slot = await createSlot(db.pool, operator, day, '17:00', 4);
    const { Reference } = await book(db.pool, operator, { date: day, time: '17:00' }, { participants: 2 });
    await book(db.pool, operator, { date: day, time: '17:00' }, { participants: 1 });
    const grown = await staff.send('PATCH', path(Reference), { Participants: 3 });
    expect(grown.status, grown.text).toBe(200);
    expect(grown.body.Participants).toBe(3);
    expect(grown.body.Price.TotalMinor).toBe(3 * 4500);
    expect(await slotState(slot.id)).toEqual({ booked: 4, live: 4 });
    const over = await staff.send('PATCH', path(Reference), { Participants: 4, Note: 'not kept' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ type: `${PROBLEM_BASE}/insufficient-capacity`, Available: 0 });
    const shrunk = await staff.send('PATCH', path(Reference), { Participants: 1 });
    expect(shrunk.body.Participants).toBe(1);
    expect(await slotState(slot.id)).toEqual({ booked: 2, live: 2 });
    const edited = await staff.send('PATCH', path(Reference), { Customer: { Phone: '+351 912 345 678' }, Note: 'Allergic to nuts' });
    expect(edited.body).toMatchObject({ Note: 'Allergic to nuts', Customer: { FirstName: 'Ada', Phone: '+351 912 345 678' } });
    const cleared = await staff.send('PATCH', path(Reference), { Note: '' });
    expect(cleared.body.Note).toBeNull();
    expect((await history(Reference)).map((h) => h.action)).toEqual(['edited', 'edited', 'edited', 'edited']);
    expect((await events(Reference)).filter((e) => e.type === 'booking.updated')).toHaveLength(4);
  });

  it('refuses more participants than the activity allows (422) and changes nothing', async () => {
    await createSlot(db.pool, operator, day, '17:30', 100);
    const { Reference } = await book(db.pool, operator, { date: day, time: '17:30' }, { participants: 2 });
    const answer = await staff.send('PATCH', path(Reference), { Participants: 11 });
    expect(answer.status).toBe(422);
    expect(await history(Reference)).toEqual([]);
  });
});

describe('answers', () => {
  it('completes a waiver from the desk: the answers replace the stored ones once they answer every required question', async () => {
    const { createTestActivity, createTestQuestion } = await import('@backbone/testkit');
    const rafting = await createTestActivity(db.pool, operator.account.id, { timeZone: 'Europe/Lisbon', name: 'Rafting' });
    const contact = await createTestQuestion(db.pool, rafting, { question: 'Emergency contact', type: 'text', required: true });
    const birth = await createTestQuestion(db.pool, rafting, { question: 'Date of birth', type: 'date', required: true, perParticipant: true });
    await createSlot(db.pool, operator, day, '11:30', 10, rafting);
    const { Reference } = await book(db.pool, operator, { date: day, time: '11:30' }, { participants: 2, activity: rafting });
    const answers = async () => (await staff.send('GET', path(Reference))).body.Answers;
    // One participant's date missing: refused, naming it; nothing stored.
    const partial = await staff.send('PATCH', path(Reference), {
      Answers: [
        { QuestionID: contact.id, Value: 'Rui 912 345 678' },
        { QuestionID: birth.id, Participant: 1, Value: '1990-04-01' },
      ],
    });
    expect(partial.status).toBe(422);
    expect(await answers()).toEqual([]);
    const done = await staff.send('PATCH', path(Reference), {
      Answers: [
        { QuestionID: contact.id, Value: 'Rui 912 345 678' },
        { QuestionID: birth.id, Participant: 1, Value: '1990-04-01' },
        { QuestionID: birth.id, Participant: 2, Value: '2012-09-30' },
      ],
    });
    expect(done.status, done.text).toBe(200);
    expect(done.body.Answers.map((a: { Question: string; Value: unknown }) => `${a.Question}: ${String(a.Value)}`)).toEqual([
      'Emergency contact: Rui 912 345 678',
      'Date of birth: 1990-04-01',
      'Date of birth: 2012-09-30',
    ]);
    const manifest = await staff.send('GET', `/api/v2/operator/manifest?Date=${day}&ActivityID=${rafting.activityId}`);
    expect(manifest.body.Timeslots[0].Bookings[0].WaiversComplete).toBe(true);
    expect(await history(Reference)).toMatchObject([{ action: 'edited', actor_kind: 'operator' }]);
  });
});

describe('check-in', () => {
  it('records the first time, keeps it on a repeat, undoes it, and records each in the history with the actor', async () => {
    await createSlot(db.pool, operator, day, '18:00', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '18:00' });
    const key = await createApiKey(db.pool, operator.account.id, { name: 'Door scanner', scopes: ['admin'] });
    const first = await request(server.url, 'POST', path(Reference, '/check-in'), { key: key.secret });
    expect(first.status, first.text).toBe(200);
    expect(first.body.CheckedInAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const repeat = await staff.send('POST', path(Reference, '/check-in'));
    expect(repeat.body.CheckedInAt).toBe(first.body.CheckedInAt);
    const undone = await staff.send('DELETE', path(Reference, '/check-in'));
    expect(undone.status).toBe(200);
    expect(undone.body.CheckedInAt).toBeNull();
    const undoneAgain = await staff.send('DELETE', path(Reference, '/check-in'));
    expect(undoneAgain.body.CheckedInAt).toBeNull();
    expect(await history(Reference)).toMatchObject([
      { action: 'checked_in', actor_kind: 'operator', api_key_id: key.id, user_id: null },
      { action: 'check_in_undone', actor_kind: 'operator', user_id: await userId(operator.staff.email) },
    ]);
  });

  it('refuses a cancelled booking (409)', async () => {
    await createSlot(db.pool, operator, day, '18:30', 10);
    const { Reference } = await book(db.pool, operator, { date: day, time: '18:30' });
    await staff.send('POST', path(Reference, '/cancel'));
    const answer = await staff.send('POST', path(Reference, '/check-in'));
    expect(answer.status).toBe(409);
    expect(answer.body.type).toBe(`${PROBLEM_BASE}/invalid-transition`);
  });
});

describe('the tenant wall', () => {
  it("answers 404 for another account's booking on every change, and changes nothing", async () => {
    await createSlot(db.pool, other, day, '10:00', 10);
    await createSlot(db.pool, other, day, '11:00', 10);
    const { Reference } = await book(db.pool, other, { date: day, time: '10:00' });
    const calls: Array<[string, string, unknown?]> = [
      ['POST', path(Reference, '/cancel'), { Reason: 'x' }],
      ['POST', path(Reference, '/reschedule'), { Date: day, Time: '11:00' }],
      ['PATCH', path(Reference), { Participants: 2 }],
      ['POST', path(Reference, '/check-in')],
      ['DELETE', path(Reference, '/check-in')],
    ];
    for (const [method, url, body] of calls) {
      const answer = await staff.send(method, url, body);
      expect(answer.status, `${method} ${url}`).toBe(404);
    }
    const { rows } = await db.pool.query('SELECT status, participants, checked_in_at, timeslot_id FROM bookings WHERE reference = $1', [Reference]);
    expect(rows[0]).toMatchObject({ status: 'confirmed', participants: 1, checked_in_at: null });
    expect(await history(Reference)).toEqual([]);
  });
});

describe('history', () => {
  it('lists a partner hold, its confirm, a reschedule, an edit, a check-in and a cancel, oldest first, each with its actor', async () => {
    await createSlot(db.pool, operator, day, '19:00', 10);
    await createSlot(db.pool, operator, day, '20:00', 10);
    const partnerKey = await createApiKey(db.pool, operator.account.id, { name: 'Viator', scopes: ['ota'] });
    const { value } = await createBooking(
      { pool: db.pool },
      {
        accountId: operator.account.id,
        apiKeyId: partnerKey.id,
        partnerId: partnerKey.partnerId,
        hold: { minutes: 30 },
        channel: 'ota',
        activityId: operator.activity.activityId,
        date: day,
        time: '19:00',
        participants: 2,
        customer: { FirstName: 'Ines', LastName: 'Costa', Email: 'ines@example.com' },
        paymentReference: null,
        answers: undefined,
      },
    );
    const ref = { owner: { accountId: operator.account.id, partnerId: partnerKey.partnerId }, reference: value.Reference };
    await confirmBooking({ pool: db.pool }, ref, {}, { kind: 'partner', partnerId: partnerKey.partnerId!, apiKeyId: partnerKey.id });
    await staff.send('POST', path(value.Reference, '/reschedule'), { Date: day, Time: '20:00' });
    await staff.send('PATCH', path(value.Reference), { Note: 'Birthday' });
    await request(server.url, 'POST', path(value.Reference, '/check-in'), { key: operator.key });
    await staff.send('POST', path(value.Reference, '/cancel'), { Reason: 'Weather' });
    const answer = await staff.send('GET', path(value.Reference, '/history'));
    expect(answer.status, answer.text).toBe(200);
    const staffId = await userId(operator.staff.email);
    expect(answer.body.Items).toMatchObject([
      { Action: 'held', Actor: { Kind: 'partner', PartnerID: partnerKey.partnerId, PartnerName: 'Viator', KeyID: partnerKey.id }, Reason: null, Changes: null },
      { Action: 'confirmed', Actor: { Kind: 'partner', PartnerID: partnerKey.partnerId, KeyID: partnerKey.id } },
      { Action: 'rescheduled', Actor: { Kind: 'user', UserID: staffId, UserEmail: operator.staff.email }, Changes: { Time: { From: '19:00', To: '20:00' } } },
      { Action: 'edited', Changes: { Note: { From: null, To: 'Birthday' } } },
      { Action: 'checked-in', Actor: { Kind: 'user' } },
      { Action: 'cancelled', Actor: { Kind: 'user', UserID: staffId }, Reason: 'Weather' },
    ]);
    expect(answer.body.Items[4].Actor.UserID).toBeUndefined();
    expect(answer.body.Items[4].Actor.KeyID).toMatch(/^[0-9a-f-]{36}$/);
    const times = answer.body.Items.map((i: { At: string }) => Date.parse(i.At));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('shows a sale made in the console as created by its user, and a lapsed hold as expired by the system', async () => {
    await createSlot(db.pool, operator, day, '21:00', 10);
    const sale = await staff.send('POST', '/api/v2/operator/sales', {
      ActivityID: operator.activity.activityId,
      Date: day,
      Time: '21:00',
      Participants: 1,
      Customer: { FirstName: 'Walk', LastName: 'In', Email: 'walk@example.com' },
    });
    expect(sale.status, sale.text).toBe(201);
    const sold = await staff.send('GET', path(sale.body.Reference, '/history'));
    expect(sold.body.Items).toMatchObject([
      { Action: 'created', Actor: { Kind: 'user', UserID: await userId(operator.staff.email), UserEmail: operator.staff.email } },
    ]);
    const { Reference } = await book(db.pool, operator, { date: day, time: '21:00' });
    await db.pool.query(`UPDATE bookings SET status = 'on_hold', expires_at = now() - interval '5 minutes' WHERE reference = $1`, [Reference]);
    const lapsed = await staff.send('GET', path(Reference, '/history'));
    expect(lapsed.body.Items.map((i: { Action: string }) => i.Action)).toEqual(['held', 'expired']);
    expect(lapsed.body.Items[1].Actor).toEqual({ Kind: 'system' });
  });

  it("answers 404 for another account's booking", async () => {
    await createSlot(db.pool, other, day, '21:30', 10);
    const { Reference } = await book(db.pool, other, { date: day, time: '21:30' });
    expect((await staff.send('GET', path(Reference, '/history'))).status).toBe(404);
  });
});
