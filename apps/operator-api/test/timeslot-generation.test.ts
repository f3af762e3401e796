// Generating timeslots with a preview and undoing it: the dry run names each planned slot and whether it exists
// already (the clashes) and makes nothing; removing empty timeslots takes only those no booking names (a cancelled one
// keeps its slot too), previews the same without removing, is audited, refuses a bad range and another account's
// activity, and is the owner's.
import { beforeAll, describe, expect, it } from 'vitest';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let owner: SessionClient;
const from = dayFromNow(30);
const to = dayFromNow(36);

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
});

const generatePath = () => `/api/v2/operator/activities/${operator.activity.activityId}/timeslots`;
const removePath = (activityId = operator.activity.activityId) => `/api/v2/operator/activities/${activityId}/timeslots/remove-empty`;
const count = async () =>
  Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM timeslots WHERE activity_id = $1', [operator.activity.id])).rows[0]!.n);

describe('generating with a preview, and removing empty timeslots', () => {
  it('previews every planned slot with its clashes and makes nothing; then makes them', async () => {
    await createSlot(db.pool, operator, from, '09:00', 6);
    const before = await count();
    const pattern = { From: from, To: to, Days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], Times: ['09:00', '14:00'], Capacity: 6 };
    const preview = await owner.send('POST', generatePath(), { ...pattern, DryRun: true });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ Created: 0, Existing: 1 });
    expect(preview.body.Preview).toHaveLength(14);
    expect(preview.body.Preview[0]).toMatchObject({ Date: from, Time: '09:00', Capacity: 6, Exists: true });
    expect(preview.body.Preview[1]).toMatchObject({ Date: from, Time: '14:00', Exists: false });
    expect(await count()).toBe(before);
    const made = await owner.send('POST', generatePath(), pattern);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ Created: 13, Existing: 1 });
  });

  it('removes only the slots no booking names, after a dry run that removes nothing', async () => {
    await book(db.pool, operator, { date: from, time: '14:00' });
    const cancelled = await book(db.pool, operator, { date: dayFromNow(31), time: '09:00' });
    expect((await owner.send('POST', `/api/v2/operator/bookings/${cancelled.Reference}/cancel`, { Reason: 'Changed plans' })).status).toBe(200);
    const before = await count();
    const dry = await owner.send('POST', removePath(), { From: from, To: to, DryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ Removed: 0, Kept: 2 });
    expect(dry.body.Timeslots).toHaveLength(12);
    expect(await count()).toBe(before);

    const onlyWeekend = await owner.send('POST', removePath(), { From: from, To: to, Times: ['14:00'], DryRun: true });
    expect(onlyWeekend.body.Timeslots.every((t: { Time: string }) => t.Time === '14:00')).toBe(true);

    const removed = await owner.send('POST', removePath(), { From: from, To: to });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ Removed: 12, Kept: 2 });
    expect(await count()).toBe(before - 12);
    const audit = await owner.send('GET', '/api/v2/operator/audit?Action=timeslots.removed');
    expect(audit.body.Entries[0]).toMatchObject({ Action: 'timeslots.removed', Subject: { Type: 'activity' } });
  });

  it('refuses a range backwards or over a year (422), another account’s activity (404), and staff (403)', async () => {
    const backwards = await owner.send('POST', removePath(), { From: to, To: from });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors).toEqual([{ field: 'To', message: 'must be on or after From.' }]);
    expect((await owner.send('POST', removePath(), { From: from, To: dayFromNow(30 + 400) })).status).toBe(422);
    const foreign = await owner.send('POST', removePath(other.activity.activityId), { From: from, To: to });
    expect(foreign.status).toBe(404);
    expect(foreign.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    const staff = await signedIn(server.url, operator.staff.email);
    expect((await staff.send('POST', removePath(), { From: from, To: to })).status).toBe(403);
  });
});
