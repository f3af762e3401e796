// GET availability dates and timeslots: what counts as bookable, sums and counts, order, range rules, and the
// 400 / 422 / 404 rows of the contract.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestTimeslot, futureDate, request } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import { createOperator, PROBLEM_BASE, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();

// Asia/Tokyo keeps +09:00 all year, so expected offsets here do not depend on the day the tests run.
const ZONE = 'Asia/Tokyo';
const today = futureDate(0, ZONE);
const d1 = futureDate(5, ZONE);
const d2 = futureDate(6, ZONE);
const d3 = futureDate(8, ZONE);

let op: Operator;
let other: Operator;
let hidden: Activity;
let retired: Activity;

const datesPath = (activityId: string, query: string) => `/api/v2/ota/partner/availability/${activityId}/dates${query}`;
const slotsPath = (activityId: string, query: string) => `/api/v2/ota/partner/availability/${activityId}/timeslots${query}`;

beforeAll(async () => {
  op = await createOperator(db.pool, { timeZone: ZONE, activity: { durationMinutes: 90 } });
  other = await createOperator(db.pool, { timeZone: ZONE });
  const a = op.activity;
  // Created out of order on purpose: the answer must be ordered by time.
  await createTestTimeslot(db.pool, a, { date: d1, time: '14:00', capacity: 5 });
  await createTestTimeslot(db.pool, a, { date: d1, time: '09:00', capacity: 10, booked: 3 });
  await createTestTimeslot(db.pool, a, { date: d1, time: '18:00', capacity: 8, status: 'closed' });
  await createTestTimeslot(db.pool, a, { date: d1, time: '20:00', capacity: 4, booked: 4 });
  await createTestTimeslot(db.pool, a, { date: d2, time: '11:00', capacity: 6, booked: 1 });
  await createTestTimeslot(db.pool, a, { date: d3, time: '10:00', capacity: 6, status: 'closed' });
  // Already started: its start lies an hour in the past.
  await createTestTimeslot(db.pool, a, { date: today, time: '00:01', capacity: 6, startsAt: new Date(Date.now() - 3_600_000) });
  await createTestTimeslot(db.pool, other.activity, { date: d1, time: '09:00', capacity: 50 });
  hidden = await createTestActivity(db.pool, op.account.id, { timeZone: ZONE, inShopfront: false });
  retired = await createTestActivity(db.pool, op.account.id, { timeZone: ZONE, active: false });
  await createTestTimeslot(db.pool, hidden, { date: d1, time: '09:00' });
  await createTestTimeslot(db.pool, retired, { date: d1, time: '09:00' });
});

describe('GET availability dates', () => {
  it('lists each local date with a bookable timeslot: free places summed, bookable slots counted', async () => {
    const res = await request(server.url, 'GET', datesPath(op.activity.activityId, `?StartDate=${today}&EndDate=${d3}`), { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // today: only a started slot; d1: 7 + 5 (the closed and the full slot do not count); d3: only a closed slot.
    expect(res.body).toEqual([
      { Date: d1, Available: 12, Timeslots: 2 },
      { Date: d2, Available: 5, Timeslots: 1 },
    ]);
  });

  it('includes both ends of the range', async () => {
    const res = await request(server.url, 'GET', datesPath(op.activity.activityId, `?StartDate=${d2}&EndDate=${d2}`), { key: op.ota });
    expect(res.body).toEqual([{ Date: d2, Available: 5, Timeslots: 1 }]);
  });

  it('answers an empty array for a range without capacity', async () => {
    const res = await request(server.url, 'GET', datesPath(op.activity.activityId, `?StartDate=${d3}&EndDate=${futureDate(30, ZONE)}`), { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('accepts the ActivityID in upper case', async () => {
    const res = await request(server.url, 'GET', datesPath(op.activity.activityId.toUpperCase(), `?StartDate=${d1}&EndDate=${d1}`), { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ Date: d1, Available: 12, Timeslots: 2 }]);
  });

  it('accepts a range of 366 dates and refuses 367 with 422', async () => {
    const ok = await request(server.url, 'GET', datesPath(op.activity.activityId, '?StartDate=2028-01-01&EndDate=2028-12-31'), { key: op.ota });
    expect(ok.status).toBe(200);
    const tooLong = await request(server.url, 'GET', datesPath(op.activity.activityId, '?StartDate=2027-01-01&EndDate=2028-01-02'), { key: op.ota });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, errors: [{ field: 'EndDate' }] });
    expect(tooLong.body.detail).toMatch(/366/);
  });

  it.each([
    ['StartDate missing', `?EndDate=${d1}`, 'StartDate'],
    ['EndDate missing', `?StartDate=${d1}`, 'EndDate'],
    ['StartDate not a calendar date (2026-02-30)', `?StartDate=2026-02-30&EndDate=2026-03-02`, 'StartDate'],
    ['EndDate malformed', `?StartDate=${d1}&EndDate=2026-3-1`, 'EndDate'],
    ['EndDate before StartDate', `?StartDate=${d2}&EndDate=${d1}`, 'EndDate'],
  ])('answers 422 naming the field when %s', async (_label, query, field) => {
    const res = await request(server.url, 'GET', datesPath(op.activity.activityId, query), { key: op.ota });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, title: 'Unprocessable Entity', status: 422 });
    expect(res.body.detail).toContain(field);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('names both fields when both are missing', async () => {
    const res = await request(server.url, 'GET', datesPath(op.activity.activityId, ''), { key: op.ota });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['EndDate', 'StartDate']);
  });
});

describe('GET availability timeslots', () => {
  it('lists the bookable timeslots of the local date, ordered by time, with offsets in the activity zone', async () => {
    const res = await request(server.url, 'GET', slotsPath(op.activity.activityId, `?Date=${d1}`), { key: op.ota });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { Time: '09:00', StartsAt: `${d1}T09:00:00+09:00`, EndsAt: `${d1}T10:30:00+09:00`, Capacity: 10, Available: 7 },
      { Time: '14:00', StartsAt: `${d1}T14:00:00+09:00`, EndsAt: `${d1}T15:30:00+09:00`, Capacity: 5, Available: 5 },
    ]);
  });

  it('leaves out closed, full and started timeslots', async () => {
    expect((await request(server.url, 'GET', slotsPath(op.activity.activityId, `?Date=${d3}`), { key: op.ota })).body).toEqual([]);
    expect((await request(server.url, 'GET', slotsPath(op.activity.activityId, `?Date=${today}`), { key: op.ota })).body).toEqual([]);
  });

  it.each([
    ['Date missing', ''],
    ['Date not a calendar date', '?Date=2026-02-30'],
    ['Date malformed', '?Date=tomorrow'],
    ['Date given twice', `?Date=${d1}&Date=${d2}`],
  ])('answers 422 when %s', async (_label, query) => {
    const res = await request(server.url, 'GET', slotsPath(op.activity.activityId, query), { key: op.ota });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, status: 422, errors: [{ field: 'Date' }] });
    expect(res.body.detail).toContain('Date');
  });
});

describe.each([
  ['dates', (id: string) => datesPath(id, `?StartDate=${d1}&EndDate=${d2}`)],
  ['timeslots', (id: string) => slotsPath(id, `?Date=${d1}`)],
])('GET availability %s: ActivityID', (_name, path) => {
  it.each([
    ['not a UUID', 'kayak'],
    ['a UUID without dashes', randomUUID().replaceAll('-', '')],
    ['a UUID in braces', `{${randomUUID()}}`],
    ['a UUID with a non-hex digit', 'g0000000-0000-4000-8000-000000000000'],
    ['a number', '42'],
  ])('answers 400 for an ActivityID that is %s', async (_label, id) => {
    const res = await request(server.url, 'GET', path(encodeURIComponent(id)), { key: op.ota });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/invalid-request`, title: 'Bad Request', status: 400 });
    expect(res.body.detail).toContain('ActivityID');
  });

  it.each([
    ['unknown', () => randomUUID()],
    ['of another account', () => other.activity.activityId],
    ['not in the shopfront', () => hidden.activityId],
    ['inactive', () => retired.activityId],
  ])('answers 404 for an activity that is %s', async (_label, id) => {
    const res = await request(server.url, 'GET', path(id()), { key: op.ota });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, title: 'Not Found', status: 404 });
  });
});
