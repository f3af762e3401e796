// The audit log through HTTP: each owner action writes exactly one entry (who, what, which subject, what changed; never a
// secret), a refused action or one that changes nothing writes none, the pages are complete while entries keep
// arriving, staff are refused, another account's entries never show, and bad queries are 422 problems.
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let owner: SessionClient;
let staff: SessionClient;
let ownerUserId: string;

const newActivity = {
  Name: 'Sea cave tour',
  Description: 'Two hours by kayak.',
  DurationMinutes: 120,
  TimeZone: 'Europe/Lisbon',
  Price: { Amount: 4500, Currency: 'EUR' },
  MaxParticipants: 8,
};

async function entryCount(accountId: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_entries WHERE account_id = $1', [accountId]);
  return rows[0]!.n;
}

/** Runs `act` and answers the entries it wrote (read through the API), checking that it wrote `expected` of them. */
async function written(act: () => Promise<unknown>, expected = 1) {
  const before = await entryCount(operator.account.id);
  await act();
  expect(await entryCount(operator.account.id)).toBe(before + expected);
  const page = await owner.send('GET', `/api/v2/operator/audit?Limit=${Math.max(expected, 1)}`);
  expect(page.status).toBe(200);
  return expected === 0 ? [] : page.body.Entries;
}

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  staff = await signedIn(server.url, operator.staff.email);
  const users = await owner.send('GET', '/api/v2/operator/users');
  ownerUserId = users.body.find((u: { Email: string }) => u.Email === operator.owner.email).UserID;
});

describe('what each owner action records', () => {
  it('records activities, their questions and generated timeslots, with the user and the members that changed', async () => {
    const ownerActor = { Kind: 'user', ID: ownerUserId, Label: operator.owner.email };
    let activityId = '';
    const [created] = await written(async () => {
      const answer = await owner.send('POST', '/api/v2/operator/activities', newActivity);
      expect(answer.status).toBe(201);
      activityId = answer.body.ActivityID;
    });
    expect(created).toMatchObject({ Action: 'activity.created', Actor: ownerActor, Subject: { Type: 'activity', ID: activityId, Label: 'Sea cave tour' } });
    expect(created.Changes).toMatchObject({ Name: { From: null, To: 'Sea cave tour' }, Price: { From: null, To: { Amount: 4500, Currency: 'EUR' } } });
    expect(Date.now() - Date.parse(created.At)).toBeLessThan(60_000);

    const [edited] = await written(async () => {
      const answer = await owner.send('PATCH', `/api/v2/operator/activities/${activityId}`, {
        Name: 'Sea caves',
        Price: { Amount: 5000, Currency: 'EUR' },
        MaxParticipants: 8,
      });
      expect(answer.status).toBe(200);
    });
    expect(edited).toMatchObject({ Action: 'activity.updated', Actor: ownerActor, Subject: { ID: activityId, Label: 'Sea caves' } });
    // MaxParticipants was sent but did not change: only what changed is recorded.
    expect(edited.Changes).toEqual({
      Name: { From: 'Sea cave tour', To: 'Sea caves' },
      Price: { From: { Amount: 4500, Currency: 'EUR' }, To: { Amount: 5000, Currency: 'EUR' } },
    });
    await written(async () => expect((await owner.send('PATCH', `/api/v2/operator/activities/${activityId}`, { Name: 'Sea caves' })).status).toBe(200), 0);

    const [question] = await written(async () => {
      const answer = await owner.send('POST', `/api/v2/operator/activities/${activityId}/questions`, {
        Question: 'Can you swim?',
        Type: 'checkbox',
        Required: true,
      });
      expect(answer.status).toBe(201);
    });
    expect(question).toMatchObject({ Action: 'question.added', Subject: { Type: 'activity', ID: activityId, Label: 'Sea caves' } });
    expect(question.Changes).toMatchObject({
      Question: { From: null, To: 'Can you swim?' },
      Type: { From: null, To: 'checkbox' },
      Required: { From: null, To: true },
    });

    const pattern = { From: dayFromNow(30), To: dayFromNow(36), Days: ['mon', 'wed'], Times: ['09:00', '14:00'], Capacity: 6 };
    await written(
      async () => expect((await owner.send('POST', `/api/v2/operator/activities/${activityId}/timeslots`, { ...pattern, DryRun: true })).status).toBe(200),
      0,
    );
    let made = 0;
    const [generated] = await written(async () => {
      const answer = await owner.send('POST', `/api/v2/operator/activities/${activityId}/timeslots`, pattern);
      expect(answer.status).toBe(201);
      made = answer.body.Created;
    });
    expect(made).toBe(4);
    expect(generated).toMatchObject({ Action: 'timeslots.generated', Subject: { ID: activityId } });
    expect(generated.Changes).toEqual({
      Timeslots: { From: null, To: { Created: 4, From: pattern.From, To: pattern.To, Days: pattern.Days, Times: pattern.Times, Capacity: 6 } },
    });
    // The same pattern again finds every timeslot made: nothing changed, nothing recorded.
    await written(async () => expect((await owner.send('POST', `/api/v2/operator/activities/${activityId}/timeslots`, pattern)).status).toBe(201), 0);
  });

  it('records closing, reopening and capacity changes of a timeslot, named by its activity and local time', async () => {
    const date = dayFromNow(20);
    const slot = await createSlot(db.pool, operator, date, '10:30', 5);
    const label = `${operator.activity.name}, ${date} 10:30`;
    const [closed] = await written(async () => expect((await owner.send('POST', `/api/v2/operator/timeslots/${slot.id}/close`)).status).toBe(200));
    expect(closed).toMatchObject({
      Action: 'timeslot.closed',
      Subject: { Type: 'timeslot', ID: String(slot.id), Label: label },
      Changes: { Status: { From: 'open', To: 'closed' } },
    });
    await written(async () => expect((await owner.send('POST', `/api/v2/operator/timeslots/${slot.id}/close`)).status).toBe(200), 0);
    const [reopened] = await written(async () => expect((await owner.send('POST', `/api/v2/operator/timeslots/${slot.id}/reopen`)).status).toBe(200));
    expect(reopened).toMatchObject({ Action: 'timeslot.reopened', Changes: { Status: { From: 'closed', To: 'open' } } });
    const [capacity] = await written(async () =>
      expect((await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: 9 })).status).toBe(200),
    );
    expect(capacity).toMatchObject({ Action: 'timeslot.capacity_changed', Changes: { Capacity: { From: 5, To: 9 } } });
  });

  it('records keys and users, never their secret nor a password or its hash', async () => {
    let key: { KeyID: string; Secret: string } = { KeyID: '', Secret: '' };
    const [created] = await written(async () => {
      const answer = await owner.send('POST', '/api/v2/operator/keys', { Name: 'Booking.example', Scopes: ['usage:read'] });
      expect(answer.status).toBe(201);
      key = answer.body;
    });
    expect(created).toMatchObject({
      Action: 'key.created',
      Subject: { Type: 'key', ID: key.KeyID, Label: 'Booking.example' },
      Changes: { Name: { From: null, To: 'Booking.example' }, Scopes: { From: null, To: ['usage:read'] } },
    });
    const [revoked] = await written(async () => expect((await owner.send('DELETE', `/api/v2/operator/keys/${key.KeyID}`)).status).toBe(204));
    expect(revoked).toMatchObject({
      Action: 'key.revoked',
      Subject: { ID: key.KeyID, Label: 'Booking.example' },
      Changes: { Revoked: { From: false, To: true } },
    });

    let user: { UserID: string; Password: string } = { UserID: '', Password: '' };
    const [added] = await written(async () => {
      const answer = await owner.send('POST', '/api/v2/operator/users', { Email: 'New.Guide@Example.com', Role: 'staff' });
      expect(answer.status).toBe(201);
      user = answer.body;
    });
    expect(added).toMatchObject({
      Action: 'user.created',
      Subject: { Type: 'user', ID: user.UserID, Label: 'new.guide@example.com' },
      Changes: { Email: { From: null, To: 'new.guide@example.com' }, Role: { From: null, To: 'staff' } },
    });
    const [disabled] = await written(async () => expect((await owner.send('POST', `/api/v2/operator/users/${user.UserID}/disable`)).status).toBe(200));
    expect(disabled).toMatchObject({ Action: 'user.disabled', Subject: { ID: user.UserID }, Changes: { Disabled: { From: false, To: true } } });
    await written(async () => expect((await owner.send('POST', `/api/v2/operator/users/${user.UserID}/disable`)).status).toBe(200), 0);

    const stored = await db.pool.query<{ row: string }>('SELECT row_to_json(e)::text AS row FROM audit_entries e WHERE account_id = $1', [operator.account.id]);
    const everything = stored.rows.map((r) => r.row).join('\n');
    expect(everything).not.toContain(key.Secret);
    expect(everything).not.toContain(key.Secret.slice(0, 10));
    expect(everything).not.toContain(user.Password);
    expect(everything).not.toContain('scrypt$');
  });

  it('names an admin key as the actor when a script acts without a session', async () => {
    const keys = await owner.send('GET', '/api/v2/operator/keys');
    const testKey = keys.body.find((k: { Name: string; RevokedAt: string | null }) => k.Name === 'test' && k.RevokedAt === null);
    const [created] = await written(async () => {
      const answer = await request(server.url, 'POST', '/api/v2/operator/activities', { key: operator.key, body: { ...newActivity, Name: 'Scripted tour' } });
      expect(answer.status).toBe(201);
    });
    expect(created).toMatchObject({
      Action: 'activity.created',
      Actor: { Kind: 'key', ID: testKey.KeyID, Label: 'test' },
      Subject: { Label: 'Scripted tour' },
    });
  });

  it('writes nothing for a refused action', async () => {
    const date = dayFromNow(21);
    const slot = await createSlot(db.pool, operator, date, '08:00', 4);
    await book(db.pool, operator, { date, time: '08:00' }, { participants: 3 });
    const refusals: Array<[string, string, unknown, number]> = [
      ['PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: 2 }, 409],
      ['POST', '/api/v2/operator/activities', { ...newActivity, TimeZone: 'Mars/Base' }, 422],
      ['POST', '/api/v2/operator/activities', { ...newActivity, MaxParticipants: 0 }, 422],
      ['PATCH', `/api/v2/operator/activities/${operator.activity.activityId}`, { DurationMinutes: 0 }, 422],
      ['POST', '/api/v2/operator/users', { Email: operator.staff.email, Role: 'staff' }, 422],
      ['POST', '/api/v2/operator/keys', { Name: 'x', Scopes: ['root'] }, 422],
      ['DELETE', '/api/v2/operator/keys/00000000-0000-4000-8000-000000000000', undefined, 404],
      ['PATCH', `/api/v2/operator/activities/${other.activity.activityId}`, { Name: 'Taken over' }, 404],
      ['POST', '/api/v2/operator/timeslots/999999999/close', undefined, 404],
    ];
    for (const [method, path, body, status] of refusals) {
      await written(async () => expect((await owner.send(method, path, body)).status, `${method} ${path}`).toBe(status), 0);
    }
    await written(async () => expect((await staff.send('POST', '/api/v2/operator/activities', newActivity)).status).toBe(403), 0);
  });
});

describe('reading the log', () => {
  it('pages newest first, complete and without repeats while new entries arrive', async () => {
    const date = dayFromNow(40);
    const slot = await createSlot(db.pool, operator, date, '16:00', 1);
    for (let capacity = 2; capacity <= 13; capacity++) await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: capacity });
    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM audit_entries WHERE account_id = $1 ORDER BY id DESC', [operator.account.id]);
    const existing = rows.map((r) => String(r.id));
    expect(existing.length).toBeGreaterThan(20);

    const seen: string[] = [];
    let cursor: string | null = null;
    let capacity = 13;
    do {
      const page: { status: number; body: { Entries: Array<{ ID: string }>; Next: string | null } } = await owner.send(
        'GET',
        `/api/v2/operator/audit?Limit=4${cursor ? `&Cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.Entries.length).toBeLessThanOrEqual(4);
      seen.push(...page.body.Entries.map((e) => e.ID));
      cursor = page.body.Next;
      // A new entry between pages lands above the first page, never in a later one.
      await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: ++capacity });
    } while (cursor !== null);
    expect(seen).toEqual(existing);
  });

  it('filters by action and by local dates of the account', async () => {
    const closed = await owner.send('GET', '/api/v2/operator/audit?Action=timeslot.closed');
    expect(closed.status).toBe(200);
    expect(closed.body.Entries.length).toBeGreaterThan(0);
    expect(closed.body.Entries.every((e: { Action: string }) => e.Action === 'timeslot.closed')).toBe(true);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
    const all = (await owner.send('GET', '/api/v2/operator/audit?Limit=200')).body.Entries.length;
    expect((await owner.send('GET', `/api/v2/operator/audit?Limit=200&From=${today}&To=${today}`)).body.Entries.length).toBe(all);
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect((await owner.send('GET', `/api/v2/operator/audit?To=${yesterday}`)).body).toEqual({ Entries: [], Next: null });
  });

  it("refuses staff (403) and never shows another account's entries", async () => {
    const refused = await staff.send('GET', '/api/v2/operator/audit');
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe(`${PROBLEM_BASE}/forbidden`);

    const otherOwner = await signedIn(server.url, other.owner.email);
    expect((await otherOwner.send('POST', '/api/v2/operator/activities', { ...newActivity, Name: 'Their secret tour' })).status).toBe(201);
    const theirs = await otherOwner.send('GET', '/api/v2/operator/audit?Limit=200');
    // Their two users (made by the test's set-up, as the system) and their activity.
    expect(theirs.body.Entries.map((e: { Subject: { Label: string } }) => e.Subject.Label)).toEqual([
      'Their secret tour',
      other.staff.email,
      other.owner.email,
    ]);
    const ours = await owner.send('GET', '/api/v2/operator/audit?Limit=200');
    expect(ours.text).not.toContain('Their secret tour');
    expect(ours.text).not.toContain(other.owner.email);
    // A cursor is only an id: one taken from the other account's page still reads this account's entries only.
    const theirCursor = Buffer.from(`k${Number(theirs.body.Entries[0].ID) + 1}`).toString('base64url');
    const crossed = await owner.send('GET', `/api/v2/operator/audit?Limit=200&Cursor=${theirCursor}`);
    expect(crossed.status).toBe(200);
    expect(crossed.text).not.toContain('Their secret tour');
    const byKey = await request(server.url, 'GET', '/api/v2/operator/audit?Limit=200', { key: other.key });
    expect(byKey.body).toEqual(theirs.body);
  });

  it('answers every bad query with a 422 problem, never a 500', async () => {
    const beyondEveryId = Buffer.from('k9999999999999999999').toString('base64url');
    expect((await owner.send('GET', `/api/v2/operator/audit?Cursor=${beyondEveryId}`)).status).toBe(200);
    for (const query of [
      'Cursor=not!a!cursor',
      `Cursor=${Buffer.from('k0').toString('base64url')}`,
      `Cursor=${Buffer.from('x12').toString('base64url')}`,
      `Cursor=${'A'.repeat(201)}`,
      'Limit=0',
      'Limit=1001',
      'Limit=abc',
      'Limit=1.5',
      'From=2026-02-30',
      'From=yesterday',
      'To=2026-13-01',
      'From=2026-06-02&To=2026-06-01',
      'Action=key.deleted',
      'Action=key.created&Action=key.revoked',
      'Order=oldest',
    ]) {
      const answer = await owner.send('GET', `/api/v2/operator/audit?${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.headers.get('content-type'), query).toContain('application/problem+json');
      expect(answer.body.type, query).toBe(`${PROBLEM_BASE}/validation`);
    }
  });
});
