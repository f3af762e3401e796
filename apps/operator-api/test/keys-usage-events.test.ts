// Owner-only keys (list without secrets, create with the secret once, revoke: the partner API answers 401), the usage
// summary equal to the usage use case's, failed platform events of the caller's account only, and roles (staff: 403).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { failPlatformEvent } from '@backbone/test-apps/operator-api';
import { request, useTestServer } from '@backbone/testkit';
import { recordUsageEntries, getUsageSummary } from '@backbone/use-cases';
import { createOperator, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, redis, server, queues } = useOperatorApi();
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

describe('keys (owner only)', () => {
  it('creates a key whose secret is shown once, which works until revoked (then 401)', async () => {
    const created = await owner.send('POST', '/api/v2/operator/keys', { Name: 'Partner X', Scopes: ['ota'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ Name: 'Partner X', Scopes: ['ota'], LastUsedAt: null, RevokedAt: null, Secret: expect.stringMatching(/^bk_/) });
    expect(created.body.Prefix).toBe(created.body.Secret.slice(0, 10));
    const listed = await owner.send('GET', '/api/v2/operator/keys');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(created.body.Secret);
    expect(listed.body.find((k: { KeyID: string }) => k.KeyID === created.body.KeyID)).toMatchObject({ Prefix: created.body.Prefix, LastUsedAt: null });

    const products = () => request(partner.url, 'GET', '/api/v2/ota/partner/products', { key: created.body.Secret });
    expect((await products()).status).toBe(200);
    const used = (await owner.send('GET', '/api/v2/operator/keys')).body.find((k: { KeyID: string }) => k.KeyID === created.body.KeyID);
    expect(Date.now() - Date.parse(used.LastUsedAt)).toBeLessThan(60_000);

    expect((await owner.send('DELETE', `/api/v2/operator/keys/${created.body.KeyID}`)).status).toBe(204);
    const refused = await products();
    expect(refused.status).toBe(401);
    expect((await owner.send('GET', '/api/v2/operator/keys')).body.find((k: { KeyID: string }) => k.KeyID === created.body.KeyID).RevokedAt).not.toBeNull();
    expect((await owner.send('DELETE', `/api/v2/operator/keys/${created.body.KeyID}`)).status).toBe(404);
  });

  it('creates a sandbox key with Test, shown as such in the list; keys are live by default', async () => {
    const test = await owner.send('POST', '/api/v2/operator/keys', { Name: 'Partner X sandbox', Scopes: ['ota'], Test: true });
    expect(test.status).toBe(201);
    expect(test.body.Test).toBe(true);
    const live = await owner.send('POST', '/api/v2/operator/keys', { Name: 'Partner Y', Scopes: ['ota'] });
    expect(live.body.Test).toBe(false);
    const listed = (await owner.send('GET', '/api/v2/operator/keys')).body as { KeyID: string; Test: boolean }[];
    expect(listed.find((k) => k.KeyID === test.body.KeyID)!.Test).toBe(true);
    expect(listed.find((k) => k.KeyID === live.body.KeyID)!.Test).toBe(false);
    expect((await owner.send('POST', '/api/v2/operator/keys', { Name: 'Bad', Scopes: ['ota'], Test: 'maybe' })).status).toBe(422);
  });

  it('refuses staff with 403 on every keys route', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/v2/operator/keys', undefined],
      ['POST', '/api/v2/operator/keys', { Name: 'x', Scopes: ['ota'] }],
      ['DELETE', `/api/v2/operator/keys/${randomUUID()}`, undefined],
    ] as const) {
      const answer = await staff.send(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
    }
  });

  it("keeps the tenant wall: another account's key is a 404 and stays active", async () => {
    const theirs = (await request(server.url, 'GET', '/api/v2/operator/keys', { key: other.key })).body[0];
    const answer = await owner.send('DELETE', `/api/v2/operator/keys/${theirs.KeyID}`);
    expect(answer.status).toBe(404);
    expect((await request(server.url, 'GET', '/api/v2/operator/keys', { key: other.key })).body[0].RevokedAt).toBeNull();
    expect((await owner.send('GET', '/api/v2/operator/keys')).text).not.toContain(theirs.KeyID);
  });

  it('refuses bad scopes and names (422)', async () => {
    expect((await owner.send('POST', '/api/v2/operator/keys', { Name: 'x', Scopes: ['root'] })).status).toBe(422);
    expect((await owner.send('POST', '/api/v2/operator/keys', { Name: '', Scopes: ['ota'] })).status).toBe(422);
    expect((await owner.send('POST', '/api/v2/operator/keys', { Name: 'x', Scopes: [] })).status).toBe(422);
  });
});

describe('usage', () => {
  it("answers the usage use case's summary with its per-day series, for staff too", async () => {
    const day = dayFromNow(-2);
    const at = Math.floor(Date.parse(`${day}T12:00:00Z`) / 1000);
    await recordUsageEntries(
      { pool: db.pool },
      {
        accountId: operator.account.id,
        caller: 'key:seed',
        entries: [
          { Meter: 'sms-sent', Usage: 2.5, OccurredAt: at },
          { Meter: 'sms-sent', Usage: 1, OccurredAt: at },
          { Meter: 'api-calls', Usage: 10, OccurredAt: at - 86_400 },
        ],
      },
    );
    await recordUsageEntries(
      { pool: db.pool },
      { accountId: other.account.id, caller: 'key:seed', entries: [{ Meter: 'sms-sent', Usage: 99, OccurredAt: at }] },
    );
    const from = dayFromNow(-7);
    const to = dayFromNow(0);
    const answer = await staff.send('GET', `/api/v2/operator/usage?From=${from}&To=${to}&TimeZone=Europe/Lisbon`);
    expect(answer.status).toBe(200);
    const expected = await getUsageSummary(
      { pool: db.pool },
      { accountId: operator.account.id, accountTimeZone: 'Europe/Lisbon', from, to, tz: 'Europe/Lisbon', perDay: true },
    );
    expect(answer.body).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(answer.body.Totals).toEqual({ Usage: 13.5, Events: 3 });
    expect(answer.body.Meters.map((m: { Meter: string }) => m.Meter)).toEqual(['api-calls', 'sms-sent']);
    expect(answer.body.Series).toHaveLength(8);
  });

  it('refuses a bad period or zone (422)', async () => {
    expect((await staff.send('GET', `/api/v2/operator/usage?From=${dayFromNow(0)}&To=${dayFromNow(-3)}`)).status).toBe(422);
    expect((await staff.send('GET', `/api/v2/operator/usage?From=${dayFromNow(0)}&To=${dayFromNow(0)}&TimeZone=Mars/Base`)).status).toBe(422);
    expect((await staff.send('GET', `/api/v2/operator/usage?From=${dayFromNow(-400)}&To=${dayFromNow(0)}`)).status).toBe(422);
  });
});

describe('failed platform events', () => {
  it("lists and replays only the caller's account's failed events", async () => {
    const connection = redis.connection();
    const mine = await failPlatformEvent(connection, redis.prefix, operator.account.id, 'basket-mine');
    const theirs = await failPlatformEvent(connection, redis.prefix, other.account.id, 'basket-theirs');
    const listed = await owner.send('GET', '/api/v2/operator/failed-events');
    expect(listed.status).toBe(200);
    expect(listed.body.map((e: { JobID: string }) => e.JobID)).toEqual([mine]);
    expect(listed.body[0]).toMatchObject({
      Queue: 'platform-events',
      Name: 'order.completed',
      FailedReason: 'refused by the test',
      AttemptsMade: 1,
      Payload: { BasketID: 'basket-mine' },
    });

    const refused = await owner.send('POST', `/api/v2/operator/failed-events/${encodeURIComponent(theirs)}/replay`);
    expect(refused.status).toBe(404);
    expect(await (await queues()['platform-events'].getJob(theirs))!.getState()).toBe('failed');

    expect((await owner.send('POST', `/api/v2/operator/failed-events/${encodeURIComponent(mine)}/replay`)).status).toBe(204);
    expect(await (await queues()['platform-events'].getJob(mine))!.getState()).toBe('waiting');
    expect((await owner.send('GET', '/api/v2/operator/failed-events')).body).toEqual([]);
    expect((await owner.send('POST', `/api/v2/operator/failed-events/${encodeURIComponent(mine)}/replay`)).status).toBe(404);
  });
});
