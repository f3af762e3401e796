// Bad input to the operator-day operations: each case answers a clear 4xx problem, never a 500, and leaves the
// bookings, the timeslots, the history and the outbox as they were.
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { book, createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let staff: SessionClient;
let live: string;
let cancelled: string;
const day = dayFromNow(4);

beforeAll(async () => {
  operator = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  await createSlot(db.pool, operator, day, '10:00', 5);
  await createSlot(db.pool, operator, day, '11:00', 1);
  await createSlot(db.pool, operator, day, '12:00', 5);
  await db.pool.query(`UPDATE timeslots SET status = 'closed' WHERE local_time = '12:00' AND account_id = $1`, [operator.account.id]);
  live = (await book(db.pool, operator, { date: day, time: '10:00' }, { participants: 2 })).Reference;
  cancelled = (await book(db.pool, operator, { date: day, time: '10:00' })).Reference;
  await staff.send('POST', `/api/v2/operator/bookings/${cancelled}/cancel`);
});

async function snapshot() {
  const { rows } = await db.pool.query<{ digest: string }>(
    `SELECT (SELECT md5(string_agg(b::text, '|' ORDER BY b.id)) FROM bookings b) || (SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM timeslots t)
            || (SELECT count(*) FROM booking_history) || ':' || (SELECT count(*) FROM outbox_events) AS digest`,
  );
  return rows[0]!.digest;
}

type Case = [name: string, method: string, path: () => string, body: unknown, status: number, raw?: string];
const b =
  (reference: () => string, rest = '') =>
  () =>
    `/api/v2/operator/bookings/${reference()}${rest}`;
const L = () => live;
const C = () => cancelled;
const unknown = () => '2222-2222';

const CASES: Case[] = [
  // cancel
  ['cancel: reference not a reference', 'POST', b(() => 'nope', '/cancel'), {}, 400],
  ['cancel: lower-case look-alike reference', 'POST', b(() => 'abcd-efgh', '/cancel'), {}, 400],
  ['cancel: unknown booking', 'POST', b(unknown, '/cancel'), {}, 404],
  ['cancel: empty Reason', 'POST', b(L, '/cancel'), { Reason: '' }, 422],
  ['cancel: blank Reason', 'POST', b(L, '/cancel'), { Reason: '   ' }, 422],
  ['cancel: Reason too long', 'POST', b(L, '/cancel'), { Reason: 'x'.repeat(501) }, 422],
  ['cancel: Reason a number', 'POST', b(L, '/cancel'), { Reason: 42 }, 422],
  ['cancel: Reason with a control character', 'POST', b(L, '/cancel'), { Reason: 'a\u0007b' }, 422],
  ['cancel: unknown member', 'POST', b(L, '/cancel'), { Refund: true }, 422],
  ['cancel: body an array', 'POST', b(L, '/cancel'), [], 422],
  ['cancel: malformed JSON', 'POST', b(L, '/cancel'), undefined, 400, '{"Reason":'],
  // reschedule
  ['reschedule: no body', 'POST', b(L, '/reschedule'), undefined, 415],
  ['reschedule: Date without Time', 'POST', b(L, '/reschedule'), { Date: day }, 422],
  ['reschedule: Time without Date', 'POST', b(L, '/reschedule'), { Time: '11:00' }, 422],
  ['reschedule: ActivityID not a UUID', 'POST', b(L, '/reschedule'), { Date: day, Time: '11:00', ActivityID: 'sunset' }, 422],
  ['reschedule: impossible date', 'POST', b(L, '/reschedule'), { Date: '2026-02-30', Time: '11:00' }, 422],
  ['reschedule: date in another format', 'POST', b(L, '/reschedule'), { Date: '30/11/2026', Time: '11:00' }, 422],
  ['reschedule: time 24:00', 'POST', b(L, '/reschedule'), { Date: day, Time: '24:00' }, 422],
  ['reschedule: time with seconds', 'POST', b(L, '/reschedule'), { Date: day, Time: '11:00:00' }, 422],
  ['reschedule: time a number', 'POST', b(L, '/reschedule'), { Date: day, Time: 1100 }, 422],
  ['reschedule: unknown member', 'POST', b(L, '/reschedule'), { Date: day, Time: '11:00', ActivityID: '6f1c1f5e-8a4b-4c39-9a49-0f3c2d1b7e55' }, 422],
  ['reschedule: no such slot', 'POST', b(L, '/reschedule'), { Date: day, Time: '23:00' }, 404],
  ['reschedule: full slot', 'POST', b(L, '/reschedule'), { Date: day, Time: '11:00' }, 409],
  ['reschedule: closed slot', 'POST', b(L, '/reschedule'), { Date: day, Time: '12:00' }, 409],
  ['reschedule: cancelled booking', 'POST', b(C, '/reschedule'), { Date: day, Time: '11:00' }, 409],
  ['reschedule: unknown booking', 'POST', b(unknown, '/reschedule'), { Date: day, Time: '11:00' }, 404],
  ['reschedule: bad reference', 'POST', b(() => 'X', '/reschedule'), { Date: day, Time: '11:00' }, 400],
  ['reschedule: not JSON', 'POST', b(L, '/reschedule'), undefined, 415, 'Date=x'],
  // change
  ['change: empty body', 'PATCH', b(L), {}, 422],
  ['change: Participants 0', 'PATCH', b(L), { Participants: 0 }, 422],
  ['change: Participants negative', 'PATCH', b(L), { Participants: -1 }, 422],
  ['change: Participants fractional', 'PATCH', b(L), { Participants: 1.5 }, 422],
  ['change: Participants a string', 'PATCH', b(L), { Participants: '3' }, 422],
  ['change: Participants over the activity maximum', 'PATCH', b(L), { Participants: 11 }, 422],
  ['change: Participants beyond the slot', 'PATCH', b(L), { Participants: 6 }, 409],
  ['change: invalid e-mail', 'PATCH', b(L), { Customer: { Email: 'not-an-address' } }, 422],
  ['change: blank first name', 'PATCH', b(L), { Customer: { FirstName: ' ' } }, 422],
  ['change: phone with letters', 'PATCH', b(L), { Customer: { Phone: 'call me' } }, 422],
  ['change: unknown customer member', 'PATCH', b(L), { Customer: { Age: 30 } }, 422],
  ['change: Note too long', 'PATCH', b(L), { Note: 'n'.repeat(2001) }, 422],
  ['change: Note a number', 'PATCH', b(L), { Note: 7 }, 422],
  ['change: Note with NUL', 'PATCH', b(L), { Note: 'a\u0000b' }, 422],
  ['change: Answers not a list', 'PATCH', b(L), { Answers: 'signed' }, 422],
  ['change: an answer without its question', 'PATCH', b(L), { Answers: [{ Value: 'x' }] }, 422],
  ['change: an answer with Value and FileID', 'PATCH', b(L), { Answers: [{ QuestionID: 1, Value: 'x', FileID: '7b0c9d3e-1f2a-4b5c-8d6e-9f0a1b2c3d4e' }] }, 422],
  ['change: Status cannot be set', 'PATCH', b(L), { Status: 'confirmed' }, 422],
  ['change: cancelled booking', 'PATCH', b(C), { Participants: 2 }, 409],
  ['change: unknown booking', 'PATCH', b(unknown), { Note: 'x' }, 404],
  // check-in
  ['check-in: cancelled booking', 'POST', b(C, '/check-in'), undefined, 409],
  ['check-in: no participant arrived', 'POST', b(L, '/check-in'), { Participants: 0 }, 422],
  ['check-in: participants in words', 'POST', b(L, '/check-in'), { Participants: 'three' }, 422],
  ['check-in: an unknown member', 'POST', b(L, '/check-in'), { Guests: 2 }, 422],
  ['check-in: unknown booking', 'POST', b(unknown, '/check-in'), undefined, 404],
  ['check-in: bad reference', 'POST', b(() => '1111-1111', '/check-in'), undefined, 400],
  ['undo check-in: unknown booking', 'DELETE', b(unknown, '/check-in'), undefined, 404],
  ['undo check-in: bad reference', 'DELETE', b(() => 'AAAA', '/check-in'), undefined, 400],
  // history and manifest
  ['history: unknown booking', 'GET', b(unknown, '/history'), undefined, 404],
  ['history: bad reference', 'GET', b(() => 'AAAA-AAA', '/history'), undefined, 400],
  ['manifest: no Date', 'GET', () => '/api/v2/operator/manifest', undefined, 422],
  ['manifest: impossible Date', 'GET', () => '/api/v2/operator/manifest?Date=2026-13-01', undefined, 422],
  ['manifest: ActivityID not a UUID', 'GET', () => `/api/v2/operator/manifest?Date=${day}&ActivityID=1`, undefined, 422],
];

// Numbers in the path and the query are plain decimals: JavaScript's Number would read "Infinity" and "1e400" (which
// reached PostgreSQL, a 500) and "0x10" (timeslot 16).
const slotId = async () =>
  (await db.pool.query<{ id: string }>(`SELECT id::text FROM timeslots WHERE account_id = $1 ORDER BY id LIMIT 1`, [operator.account.id])).rows[0]!.id;
const NUMBER_CASES: Array<[name: string, method: string, path: () => Promise<string>, body: unknown, status: number]> = [
  ...['Infinity', '-Infinity', '1e400', '0x10', '0b11', '%2B5', '%205', '5.0'].flatMap(
    (id): Array<[string, string, () => Promise<string>, unknown, number]> => [
      [`capacity of timeslot ${id}`, 'PATCH', async () => `/api/v2/operator/timeslots/${id}`, { Capacity: 5 }, 400],
      [`close timeslot ${id}`, 'POST', async () => `/api/v2/operator/timeslots/${id}/close`, {}, 400],
    ],
  ),
  ['timeslot id with a leading zero', 'PATCH', async () => `/api/v2/operator/timeslots/0${await slotId()}`, { Capacity: 5 }, 400],
  ['bookings Limit Infinity', 'GET', async () => '/api/v2/operator/bookings?Limit=Infinity', undefined, 422],
  ['bookings Limit 1e400', 'GET', async () => '/api/v2/operator/bookings?Limit=1e400', undefined, 422],
  ['audit Limit Infinity', 'GET', async () => '/api/v2/operator/audit?Limit=Infinity', undefined, 422],
];

describe('numbers in the path and the query', () => {
  it.each(NUMBER_CASES)('%s', async (_name, method, path, body, status) => {
    const before = await snapshot();
    const answer = await request(server.url, method, await path(), { key: operator.key, ...(body === undefined ? {} : { body }) });
    expect(answer.status, answer.text).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await snapshot()).toBe(before);
  });

  it('still takes a timeslot id in plain decimals', async () => {
    const answer = await request(server.url, 'PATCH', `/api/v2/operator/timeslots/${await slotId()}`, { key: operator.key, body: { Capacity: 5 } });
    expect(answer.status, answer.text).toBe(200);
  });
});

describe('bad input to the operator-day operations', () => {
  it('has at least 40 cases', () => expect(CASES.length).toBeGreaterThanOrEqual(40));

  it.each(CASES)('%s', async (_name, method, path, body, status, raw) => {
    const before = await snapshot();
    const headers: Record<string, string> = { origin: server.url };
    if (raw !== undefined) headers['content-type'] = raw.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded';
    const answer =
      raw !== undefined ? await request(server.url, method, path(), { key: operator.key, rawBody: raw, headers }) : await staff.send(method, path(), body);
    expect(answer.status, answer.text).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await snapshot()).toBe(before);
  });
});
