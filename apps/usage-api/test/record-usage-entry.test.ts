// POST /api/v2/usage/meters: the happy path, every validation rule, authentication and scopes, Idempotency-Key.
import { describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '@backbone/db';
import { request } from '@backbone/testkit';
import { countEntries, createUsageClient, PROBLEM_BASE, useUsageApi } from './support.js';

const { db, server } = useUsageApi();
const PATH = '/api/v2/usage/meters';

describe('POST /api/v2/usage/meters', () => {
  it('records an entry and answers 201 with the data envelope', async () => {
    const client = await createUsageClient(db.pool);
    const body = { Meter: 'api-calls', Usage: 2.5, ExtraInfo: '{"Endpoint":"/bookings"}', OccurredAt: 1_767_225_600 };
    const res = await request(server.url, 'POST', PATH, { key: client.write, body });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    expect(res.body).toEqual({ data: { ID: expect.any(Number), Meter: 'api-calls', Usage: 2.5, ExtraInfo: '{"Endpoint":"/bookings"}', OccurredAt: 1_767_225_600 } });
    const stored = await db.pool.query(`SELECT meter, usage::text AS usage, extra_info, extract(epoch FROM occurred_at)::int AS at FROM usage_entries WHERE id = $1 AND account_id = $2`, [
      res.body.data.ID,
      client.account.id,
    ]);
    expect(stored.rows).toEqual([{ meter: 'api-calls', usage: '2.5', extra_info: '{"Endpoint":"/bookings"}', at: 1_767_225_600 }]);
  });

  it('defaults OccurredAt to the time of the request and ExtraInfo to null', async () => {
    const client = await createUsageClient(db.pool);
    const before = Math.floor(Date.now() / 1000);
    const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Meter: 'sms', Usage: 1 } });
    const after = Math.floor(Date.now() / 1000);
    expect(res.status).toBe(201);
    expect(res.body.data.ExtraInfo).toBeNull();
    expect(res.body.data.OccurredAt).toBeGreaterThanOrEqual(before);
    expect(res.body.data.OccurredAt).toBeLessThanOrEqual(after);
  });

  it('accepts the limits themselves: 255-character Meter (also of emoji), 64 KiB ExtraInfo, OccurredAt 0 and 253402300799, a tiny Usage', async () => {
    const client = await createUsageClient(db.pool);
    const bodies = [
      { Meter: 'm'.repeat(255), Usage: 1 },
      { Meter: 'x', Usage: 1, ExtraInfo: 'e'.repeat(65_536) },
      { Meter: 'x', Usage: 1, OccurredAt: 0 },
      { Meter: 'x', Usage: 1, OccurredAt: 253_402_300_799 },
      { Meter: ' padded ', Usage: 0.000001 },
      // 255 characters counted as code points, as PostgreSQL counts them: emoji are one character each.
      { Meter: '📈'.repeat(255), Usage: 1, ExtraInfo: '{"Mood":"🙂"}' },
    ];
    for (const body of bodies) {
      const res = await request(server.url, 'POST', PATH, { key: client.write, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(201);
    }
    // The meter name is stored as sent; only a blank one is refused.
    const padded = await db.pool.query(`SELECT usage::text AS usage FROM usage_entries WHERE account_id = $1 AND meter = ' padded '`, [client.account.id]);
    expect(padded.rows).toEqual([{ usage: '0.000001' }]);
  });

  describe('validation: 422, the field named in detail and errors, nothing stored', () => {
    const cases: Array<{ name: string; field: string; body?: unknown; rawBody?: string }> = [
      { name: 'Meter missing', field: 'Meter', body: { Usage: 1 } },
      { name: 'Meter empty', field: 'Meter', body: { Meter: '', Usage: 1 } },
      { name: 'Meter blank', field: 'Meter', body: { Meter: ' \t\n ', Usage: 1 } },
      { name: 'Meter too long', field: 'Meter', body: { Meter: 'm'.repeat(256), Usage: 1 } },
      { name: 'Meter not a string', field: 'Meter', body: { Meter: 42, Usage: 1 } },
      { name: 'Meter null', field: 'Meter', body: { Meter: null, Usage: 1 } },
      { name: 'Meter with a NUL character', field: 'Meter', body: { Meter: 'a\u0000b', Usage: 1 } },
      { name: 'Meter with an unpaired surrogate', field: 'Meter', rawBody: '{"Meter":"a\\ud800b","Usage":1}' },
      { name: 'Usage missing', field: 'Usage', body: { Meter: 'm' } },
      { name: 'Usage a string "5"', field: 'Usage', body: { Meter: 'm', Usage: '5' } },
      { name: 'Usage 0', field: 'Usage', body: { Meter: 'm', Usage: 0 } },
      { name: 'Usage -1', field: 'Usage', body: { Meter: 'm', Usage: -1 } },
      { name: 'Usage not finite (1e400)', field: 'Usage', rawBody: '{"Meter":"m","Usage":1e400}' },
      { name: 'Usage underflowing to 0 (1e-400)', field: 'Usage', rawBody: '{"Meter":"m","Usage":1e-400}' },
      { name: 'Usage boolean', field: 'Usage', body: { Meter: 'm', Usage: true } },
      { name: 'OccurredAt "x"', field: 'OccurredAt', body: { Meter: 'm', Usage: 1, OccurredAt: 'x' } },
      { name: 'OccurredAt a numeric string', field: 'OccurredAt', body: { Meter: 'm', Usage: 1, OccurredAt: '1767225600' } },
      { name: 'OccurredAt 1.5', field: 'OccurredAt', body: { Meter: 'm', Usage: 1, OccurredAt: 1.5 } },
      { name: 'OccurredAt negative', field: 'OccurredAt', body: { Meter: 'm', Usage: 1, OccurredAt: -1 } },
      { name: 'OccurredAt too large', field: 'OccurredAt', body: { Meter: 'm', Usage: 1, OccurredAt: 253_402_300_800 } },
      { name: 'ExtraInfo not a string', field: 'ExtraInfo', body: { Meter: 'm', Usage: 1, ExtraInfo: { BasketID: 1 } } },
      { name: 'ExtraInfo null', field: 'ExtraInfo', body: { Meter: 'm', Usage: 1, ExtraInfo: null } },
      { name: 'ExtraInfo with a NUL character', field: 'ExtraInfo', body: { Meter: 'm', Usage: 1, ExtraInfo: '{"a":"\u0000"}' } },
      { name: 'ExtraInfo with an unpaired surrogate', field: 'ExtraInfo', rawBody: '{"Meter":"m","Usage":1,"ExtraInfo":"\\udfff"}' },
      { name: 'ExtraInfo over 64 KiB of characters', field: 'ExtraInfo', body: { Meter: 'm', Usage: 1, ExtraInfo: 'e'.repeat(65_537) } },
      { name: 'ExtraInfo over 64 KiB of UTF-8 bytes', field: 'ExtraInfo', body: { Meter: 'm', Usage: 1, ExtraInfo: '€'.repeat(30_000) } },
      { name: 'body an array', field: '', body: [{ Meter: 'm', Usage: 1 }] },
      { name: 'body a number', field: '', rawBody: '5' },
    ];

    it.each(cases)('$name', async ({ field, body, rawBody }) => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, body, rawBody, headers: rawBody ? { 'content-type': 'application/json' } : {} });
      expect(res.status).toBe(422);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, title: 'Unprocessable Entity', status: 422, instance: PATH });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      if (field) expect(res.body.detail).toContain(field);
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });

    it('lists every failing field at once', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Meter: '', Usage: '5', ExtraInfo: 3, OccurredAt: 1.5 } });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['ExtraInfo', 'Meter', 'OccurredAt', 'Usage']);
      for (const field of ['Meter', 'Usage', 'ExtraInfo', 'OccurredAt']) expect(res.body.detail).toContain(field);
    });

    it('says that "5" is not a number', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Meter: 'm', Usage: '5' } });
      expect(res.body.detail).toMatch(/Usage must be a finite JSON number/);
    });
  });

  describe('malformed requests', () => {
    it('malformed JSON is a 400 problem', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, rawBody: '{"Meter":', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe(`${PROBLEM_BASE}/malformed-json`);
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });

    it('a body that is not JSON is a 415 problem', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, rawBody: 'Meter=m&Usage=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(res.status).toBe(415);
      expect(res.body.type).toBe(`${PROBLEM_BASE}/unsupported-media-type`);
    });

    it('a body over the limit is a 413 problem', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Meter: 'm', Usage: 1, ExtraInfo: 'e'.repeat(1_100_000) } });
      expect(res.status).toBe(413);
      expect(res.body.type).toBe(`${PROBLEM_BASE}/payload-too-large`);
    });
  });

  describe('authentication and scope', () => {
    it('401 with WWW-Authenticate without a key, with a malformed header, an unknown or a revoked key', async () => {
      const client = await createUsageClient(db.pool);
      const revoked = await createApiKey(db.pool, client.account.id, { name: 'old', scopes: ['usage:write'] });
      await revokeApiKey(db.pool, client.account.id, revoked.id);
      const attempts: Array<Record<string, string>> = [
        {},
        { authorization: `Basic ${client.write}` },
        { authorization: 'Bearer' },
        { authorization: 'Bearer not-a-key' },
        { authorization: `Bearer ${revoked.secret}` },
      ];
      for (const headers of attempts) {
        const res = await request(server.url, 'POST', PATH, { headers, body: { Meter: 'm', Usage: 1 } });
        expect(res.status, JSON.stringify(headers)).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(res.body.type).toBe(`${PROBLEM_BASE}/unauthorized`);
      }
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });

    it('403 for a key without usage:write, checked before the body', async () => {
      const client = await createUsageClient(db.pool);
      for (const key of [client.read, await client.keyWith(['ota', 'platform:events'])]) {
        const res = await request(server.url, 'POST', PATH, { key, body: { Meter: '', Usage: 'bad' } });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/forbidden`, status: 403, instance: PATH });
      }
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });
  });

  describe('Idempotency-Key', () => {
    it('a retry with the same key and body replays the first answer byte for byte and stores nothing new', async () => {
      const client = await createUsageClient(db.pool);
      const headers = { 'idempotency-key': 'retry-1' };
      // No OccurredAt: the replay must carry the time stored by the first request.
      const first = await request(server.url, 'POST', PATH, { key: client.write, headers, body: { Meter: 'api-calls', Usage: 0.1 } });
      expect(first.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const again = await request(server.url, 'POST', PATH, { key: client.write, headers, body: { Usage: 0.1, Meter: 'api-calls' } });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.text).toBe(first.text);
      expect(await countEntries(db.pool, client.account.id)).toBe(1);
    });

    it('the same key with a different body is a 422 idempotency-conflict and stores nothing', async () => {
      const client = await createUsageClient(db.pool);
      const headers = { 'idempotency-key': 'retry-2' };
      expect((await request(server.url, 'POST', PATH, { key: client.write, headers, body: { Meter: 'm', Usage: 1 } })).status).toBe(201);
      for (const body of [{ Meter: 'm', Usage: 2 }, { Meter: 'other', Usage: 1 }, { Meter: 'm', Usage: 1, ExtraInfo: 'x' }, { Meter: 'm', Usage: 1, OccurredAt: 5 }]) {
        const res = await request(server.url, 'POST', PATH, { key: client.write, headers, body });
        expect(res.status).toBe(422);
        expect(res.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
      }
      expect(await countEntries(db.pool, client.account.id)).toBe(1);
    });

    it('concurrent requests with one key store one entry; the others wait and replay it', async () => {
      const client = await createUsageClient(db.pool);
      const headers = { 'idempotency-key': 'burst' };
      const answers = await Promise.all(Array.from({ length: 12 }, () => request(server.url, 'POST', PATH, { key: client.write, headers, body: { Meter: 'm', Usage: 3 } })));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(await countEntries(db.pool, client.account.id)).toBe(1);
    });

    it('keys are per account, and a request without a key is never deduplicated', async () => {
      const a = await createUsageClient(db.pool);
      const b = await createUsageClient(db.pool);
      const headers = { 'idempotency-key': 'shared-name' };
      const fromA = await request(server.url, 'POST', PATH, { key: a.write, headers, body: { Meter: 'm', Usage: 1 } });
      const fromB = await request(server.url, 'POST', PATH, { key: b.write, headers, body: { Meter: 'm', Usage: 1 } });
      expect([fromA.status, fromB.status]).toEqual([201, 201]);
      expect(fromB.headers.get('idempotent-replayed')).toBeNull();
      expect(fromB.body.data.ID).not.toBe(fromA.body.data.ID);
      await request(server.url, 'POST', PATH, { key: a.write, body: { Meter: 'm', Usage: 1 } });
      await request(server.url, 'POST', PATH, { key: a.write, body: { Meter: 'm', Usage: 1 } });
      expect(await countEntries(db.pool, a.account.id)).toBe(3);
    });

    it('a malformed Idempotency-Key is a 400 and stores nothing', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, headers: { 'idempotency-key': 'has space' }, body: { Meter: 'm', Usage: 1 } });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe(`${PROBLEM_BASE}/invalid-request`);
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });
  });
});
