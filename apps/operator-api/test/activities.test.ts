// Activities and questions from the operator API: owners create and edit (staff: 403), hiding an activity takes it
// out of the partner API, questions are listed and added, timeslots are generated from a weekly pattern, and another
// account's activity is a 404 everywhere.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { request, useTestServer } from '@backbone/testkit';
import { createOperator, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();
const partner = useTestServer(() => createTestPartnerApp(db.pool));

let operator: Operator;
let other: Operator;
let owner: SessionClient;
let staff: SessionClient;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  staff = await signedIn(server.url, operator.staff.email);
});

const newActivity = {
  Name: 'Sea cave tour',
  Description: 'Two hours by kayak.',
  DurationMinutes: 120,
  TimeZone: 'Europe/Lisbon',
  Price: { Amount: 4500, Currency: 'EUR' },
  MaxParticipants: 8,
};

describe('activities', () => {
  it('creates an activity (owners), lists it, and hides it from the partner API', async () => {
    const created = await owner.send('POST', '/api/v2/operator/activities', newActivity);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      Name: 'Sea cave tour',
      DurationMinutes: 120,
      Price: { Amount: 4500, Currency: 'EUR' },
      Active: true,
      InShopfront: true,
    });
    const listed = await staff.send('GET', '/api/v2/operator/activities');
    expect(listed.body.map((a: { Name: string }) => a.Name)).toContain('Sea cave tour');

    const ota = await operator.keyWith(['ota']);
    const products = async () =>
      ((await request(partner.url, 'GET', '/api/v2/ota/partner/products', { key: ota })).body as { Name: string }[]).map((p) => p.Name);
    expect(await products()).toContain('Sea cave tour');
    const hidden = await owner.send('PATCH', `/api/v2/operator/activities/${created.body.ActivityID}`, {
      InShopfront: false,
      Price: { Amount: 5000, Currency: 'EUR' },
    });
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ InShopfront: false, Price: { Amount: 5000 }, Name: 'Sea cave tour' });
    expect(await products()).not.toContain('Sea cave tour');
  });

  it('refuses staff on activity and question edits (403), and invalid activities (422)', async () => {
    expect((await staff.send('POST', '/api/v2/operator/activities', newActivity)).status).toBe(403);
    expect((await staff.send('PATCH', `/api/v2/operator/activities/${operator.activity.activityId}`, { Name: 'x' })).status).toBe(403);
    expect((await staff.send('POST', `/api/v2/operator/activities/${operator.activity.activityId}/questions`, { Question: 'q', Type: 'text' })).status).toBe(
      403,
    );
    expect((await owner.send('POST', '/api/v2/operator/activities', { ...newActivity, TimeZone: 'Mars/Base' })).status).toBe(422);
    expect((await owner.send('PATCH', `/api/v2/operator/activities/${operator.activity.activityId}`, {})).status).toBe(422);
    expect((await owner.send('PATCH', `/api/v2/operator/activities/${operator.activity.activityId}`, { Name: '   ' })).status).toBe(422);
  });

  it('adds and lists waiver questions', async () => {
    const added = await owner.send('POST', `/api/v2/operator/activities/${operator.activity.activityId}/questions`, {
      Question: 'Shoe size?',
      Type: 'select',
      Options: ['38', '40', '42'],
      Required: true,
      PerParticipant: true,
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ Question: 'Shoe size?', Type: 'select', Options: ['38', '40', '42'], Required: true, PerParticipant: true });
    const listed = await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/questions`);
    expect(listed.body).toEqual([added.body]);
    expect(
      (await owner.send('POST', `/api/v2/operator/activities/${operator.activity.activityId}/questions`, { Question: 'Pick', Type: 'select' })).status,
    ).toBe(422);
  });

  it("takes a file question's Options as the media types it accepts, and refuses others", async () => {
    const path = `/api/v2/operator/activities/${operator.activity.activityId}/questions`;
    const pdfOnly = await owner.send('POST', path, { Question: 'Medical form', Type: 'file', Options: ['application/pdf'], Required: true });
    expect(pdfOnly.status).toBe(201);
    expect(pdfOnly.body).toMatchObject({ Type: 'file', Options: ['application/pdf'] });
    const any = await owner.send('POST', path, { Question: 'ID photo', Type: 'file' });
    expect(any.body).toMatchObject({ Type: 'file', Options: [] });
    for (const Options of [['text/plain'], ['application/pdf', 'application/pdf'], ['PDF']]) {
      const refused = await owner.send('POST', path, { Question: 'Scan', Type: 'file', Options });
      expect(refused.status, JSON.stringify(Options)).toBe(422);
    }
    expect((await owner.send('POST', path, { Question: 'Name', Type: 'text', Options: ['application/pdf'] })).status).toBe(422);
  });

  it('generates timeslots from a weekly pattern, keeping existing ones', async () => {
    const from = dayFromNow(30);
    const to = dayFromNow(43);
    const pattern = { From: from, To: to, Days: ['mon', 'wed', 'sat'], Times: ['09:00', '14:00'], Capacity: 6 };
    const first = await owner.send('POST', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots`, pattern);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ Created: 12, Existing: 0, Skipped: [] });
    const again = await owner.send('POST', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots`, pattern);
    expect(again.body).toEqual({ Created: 0, Existing: 12, Skipped: [] });
    const listed = await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${from}&To=${to}`);
    expect(listed.body).toHaveLength(12);
    expect(listed.body[0]).toMatchObject({ Capacity: 6, Booked: 0, Status: 'open' });
  });

  it("keeps the tenant wall: another account's activity is a 404", async () => {
    const theirs = other.activity.activityId;
    for (const [method, path, body] of [
      ['PATCH', `/api/v2/operator/activities/${theirs}`, { InShopfront: false }],
      ['GET', `/api/v2/operator/activities/${theirs}/questions`, undefined],
      ['POST', `/api/v2/operator/activities/${theirs}/questions`, { Question: 'q', Type: 'text' }],
      ['POST', `/api/v2/operator/activities/${theirs}/timeslots`, { From: dayFromNow(50), To: dayFromNow(51), Days: ['mon'], Times: ['09:00'], Capacity: 1 }],
    ] as const) {
      const answer = await owner.send(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    }
    const { rows } = await db.pool.query('SELECT in_shopfront FROM activities WHERE activity_id = $1', [theirs]);
    expect(rows[0].in_shopfront).toBe(true);
  });
});

describe('generating timeslots: preview and default capacity', () => {
  it("previews the timeslots without making any, and defaults their capacity to the activity's MaxParticipants", async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const path = `/api/v2/operator/activities/${operator.activity.activityId}/timeslots`;
    const pattern = { From: dayFromNow(60), To: dayFromNow(61), Days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], Times: ['09:00', '17:00'] };
    const count = async () =>
      Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM timeslots WHERE activity_id = $1', [operator.activity.id])).rows[0]!.n);
    const before = await count();
    const preview = await owner.send('POST', path, { ...pattern, DryRun: true });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.Created).toBe(0);
    expect(preview.body.Preview).toHaveLength(4);
    expect(preview.body.Preview[0]).toMatchObject({ Date: dayFromNow(60), Time: '09:00', Capacity: operator.activity.maxParticipants });
    expect(await count()).toBe(before);
    const made = await owner.send('POST', path, pattern);
    expect(made.status).toBe(201);
    expect(made.body.Created).toBe(4);
    const { rows } = await db.pool.query<{ capacity: number }>('SELECT DISTINCT capacity FROM timeslots WHERE activity_id = $1 AND local_date = $2', [
      operator.activity.id,
      dayFromNow(60),
    ]);
    expect(rows).toEqual([{ capacity: operator.activity.maxParticipants }]);
  });
  it('refuses timeslots that would end after 9999-12-31 (UTC), with 422 and none made', async () => {
    const owner = await signedIn(server.url, operator.owner.email);
    const path = `/api/v2/operator/activities/${operator.activity.activityId}/timeslots`;
    const count = async () =>
      Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM timeslots WHERE activity_id = $1', [operator.activity.id])).rows[0]!.n);
    const before = await count();
    const late = await owner.send('POST', path, { From: '9999-12-30', To: '9999-12-31', Days: ['thu', 'fri'], Times: ['09:00', '23:30'] });
    expect(late.status, late.text).toBe(422);
    expect(late.body.errors).toHaveLength(1);
    expect(late.body.errors[0].message).toContain('9999-12-31');
    expect(await count()).toBe(before);
    // The same days, ending before midnight UTC, are taken.
    const early = await owner.send('POST', path, { From: '9999-12-30', To: '9999-12-31', Days: ['thu', 'fri'], Times: ['09:00'], DryRun: true });
    expect(early.status, early.text).toBe(200);
  });
});
