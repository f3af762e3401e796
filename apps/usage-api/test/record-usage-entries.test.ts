// POST /api/v2/usage/meters/batch: per-entry answers in input order, the valid entries stored together (all or
// none of them), an invalid envelope stores nothing, per-entry IdempotencyKey and the Idempotency-Key header.
import { describe, expect, it } from 'vitest';
import { foldAllUsage, request } from '@backbone/testkit';
import { countEntries, createUsageClient, PROBLEM_BASE, useUsageApi, utc } from './support.js';

const { db, server } = useUsageApi();
const PATH = '/api/v2/usage/meters/batch';
const AT = utc(2026, 4, 1, 12);

describe('POST /api/v2/usage/meters/batch', () => {
  it('stores every entry and answers 201 with one result per entry, in order', async () => {
    const client = await createUsageClient(db.pool);
    const Entries = Array.from({ length: 1000 }, (_, i) => ({ Meter: `m${i % 20}`, Usage: (i % 10) + 0.25, OccurredAt: AT + i, ExtraInfo: `{"Line":${i}}` }));
    const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Entries } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ Created: 1000, Replayed: 0, Rejected: 0 });
    const results = res.body.data.Results as Array<{
      Index: number;
      Status: string;
      Entry: { ID: number; Meter: string; Usage: number; ExtraInfo: string; OccurredAt: number };
    }>;
    expect(results.map((r) => r.Index)).toEqual(Entries.map((_, i) => i));
    expect(results.every((r) => r.Status === 'created')).toBe(true);
    expect(results.map(({ Entry: { ID: _id, ...rest } }) => rest)).toEqual(Entries);
    expect(new Set(results.map((r) => r.Entry.ID)).size).toBe(1000);
    expect(await countEntries(db.pool, client.account.id)).toBe(1000);
    // Each answered ID is the row holding that entry.
    const stored = await db.pool.query(
      `SELECT id AS "ID", meter AS "Meter", usage::float8 AS "Usage", extra_info AS "ExtraInfo", extract(epoch FROM occurred_at)::int AS "OccurredAt"
         FROM usage_entries WHERE account_id = $1 ORDER BY id`,
      [client.account.id],
    );
    expect(stored.rows).toEqual(results.map((r) => r.Entry).sort((a, b) => a.ID - b.ID));
  });

  it('answers 207 when some entries are rejected, with each entry its own errors, and stores the valid ones', async () => {
    const client = await createUsageClient(db.pool);
    const Entries = [
      { Meter: 'ok', Usage: 1, OccurredAt: AT },
      { Meter: 'bad', Usage: '5' },
      7,
      { Meter: ' ', Usage: 0, OccurredAt: 1.5, ExtraInfo: 3 },
      null,
      { Meter: 'ok', Usage: 2 },
      { Meter: 'big', Usage: 1, ExtraInfo: '€'.repeat(30_000) },
      { Meter: 'ok', Usage: 1, IdempotencyKey: 'has space' },
    ];
    const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Entries } });
    expect(res.status).toBe(207);
    expect(res.body.data).toMatchObject({ Created: 2, Replayed: 0, Rejected: 6 });
    const results = res.body.data.Results as Array<{ Index: number; Status: string; Errors?: Array<{ Field: string; Message: string }> }>;
    expect(results.map((r) => r.Status)).toEqual(['created', 'rejected', 'rejected', 'rejected', 'rejected', 'created', 'rejected', 'rejected']);
    const fields = (i: number) => results[i]!.Errors!.map((e) => e.Field).sort();
    expect(fields(1)).toEqual(['Entries[1].Usage']);
    expect(fields(2)).toEqual(['Entries[2]']);
    expect(fields(3)).toEqual(['Entries[3].ExtraInfo', 'Entries[3].Meter', 'Entries[3].OccurredAt', 'Entries[3].Usage']);
    expect(fields(4)).toEqual(['Entries[4]']);
    expect(fields(6)).toEqual(['Entries[6].ExtraInfo']);
    expect(fields(7)).toEqual(['Entries[7].IdempotencyKey']);
    // The same messages as the single POST.
    const single = await request(server.url, 'POST', '/api/v2/usage/meters', { key: client.write, body: { Meter: 'bad', Usage: '5' } });
    expect(results[1]!.Errors![0]!.Message).toBe(single.body.errors[0].message);
    const stored = await db.pool.query(`SELECT meter, usage::text AS usage FROM usage_entries WHERE account_id = $1 ORDER BY id`, [client.account.id]);
    expect(stored.rows).toEqual([
      { meter: 'ok', usage: '1' },
      { meter: 'ok', usage: '2' },
    ]);
  });

  it('answers 207 and stores nothing when every entry is rejected', async () => {
    const client = await createUsageClient(db.pool);
    const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Entries: [{ Meter: '' }, { Usage: 1 }] } });
    expect(res.status).toBe(207);
    expect(res.body.data).toMatchObject({ Created: 0, Replayed: 0, Rejected: 2 });
    expect(await countEntries(db.pool, client.account.id)).toBe(0);
  });

  it.each([
    { name: 'a body that is an array', body: [{ Meter: 'm', Usage: 1 }], field: '' },
    { name: 'no Entries', body: { Entry: [{ Meter: 'm', Usage: 1 }] }, field: 'Entries' },
    { name: 'Entries not an array', body: { Entries: { Meter: 'm', Usage: 1 } }, field: 'Entries' },
    { name: 'no entries at all', body: { Entries: [] }, field: 'Entries' },
    { name: 'more than 1,000 entries', body: { Entries: Array.from({ length: 1001 }, () => ({ Meter: 'm', Usage: 1 })) }, field: 'Entries' },
  ])('422 and nothing stored for $name', async ({ body, field }) => {
    const client = await createUsageClient(db.pool);
    const res = await request(server.url, 'POST', PATH, { key: client.write, body });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, status: 422, instance: PATH });
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await countEntries(db.pool, client.account.id)).toBe(0);
  });

  it('refuses a batch with invalid UTF-8 in one entry as malformed JSON (400) and stores none of it', async () => {
    const client = await createUsageClient(db.pool);
    const body = Buffer.concat([Buffer.from('{"Entries":[{"Meter":"fine","Usage":1},{"Meter":"'), Buffer.from([0xff, 0xfe]), Buffer.from('","Usage":1}]}')]);
    const res = await request(server.url, 'POST', PATH, { key: client.write, rawBody: body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/malformed-json`, status: 400, instance: PATH });
    expect(await countEntries(db.pool, client.account.id)).toBe(0);
  });

  it('stores the valid entries all together or not at all', async () => {
    const client = await createUsageClient(db.pool);
    // A trigger (in this test file's schema only) fails the insert of one entry that passed validation.
    await db.pool.query(`
      CREATE FUNCTION refuse_meter() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by test'; END $$;
      CREATE TRIGGER refuse_meter BEFORE INSERT ON usage_entries FOR EACH ROW WHEN (NEW.meter = 'explode') EXECUTE FUNCTION refuse_meter();`);
    try {
      const Entries = [
        { Meter: 'fine', Usage: 1, OccurredAt: AT },
        { Meter: 'fine', Usage: 2, OccurredAt: AT },
        { Meter: 'explode', Usage: 1, OccurredAt: AT },
      ];
      const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Entries } });
      expect(res.status).toBe(500);
      expect(res.body.type).toBe(`${PROBLEM_BASE}/internal`);
      expect(res.text).not.toContain('refused by test');
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
      await foldAllUsage(db.pool);
      const rollups = await db.pool.query(`SELECT count(*)::int AS n FROM usage_rollups_daily WHERE account_id = $1`, [client.account.id]);
      expect(rollups.rows[0].n).toBe(0);
    } finally {
      await db.pool.query(`DROP TRIGGER refuse_meter ON usage_entries; DROP FUNCTION refuse_meter();`);
    }
  });

  describe('per-entry IdempotencyKey', () => {
    it('a resent batch replays its entries and stores nothing new', async () => {
      const client = await createUsageClient(db.pool);
      const Entries = [
        { Meter: 'a', Usage: 1, IdempotencyKey: 'e-1' },
        { Meter: 'b', Usage: 2, IdempotencyKey: 'e-2', OccurredAt: AT },
      ];
      const first = await request(server.url, 'POST', PATH, { key: client.write, body: { Entries } });
      expect(first.status).toBe(201);
      const again = await request(server.url, 'POST', PATH, {
        key: client.write,
        body: { Entries: [...Entries, { Meter: 'c', Usage: 3, IdempotencyKey: 'e-3' }] },
      });
      expect(again.status).toBe(201);
      expect(again.body.data).toMatchObject({ Created: 1, Replayed: 2, Rejected: 0 });
      expect(again.body.data.Results.slice(0, 2)).toEqual(first.body.data.Results.map((r: object) => ({ ...r, Status: 'replayed' })));
      expect(await countEntries(db.pool, client.account.id)).toBe(3);
    });

    it('a key reused with a different entry is rejected; a key twice in one batch is stored once', async () => {
      const client = await createUsageClient(db.pool);
      await request(server.url, 'POST', PATH, { key: client.write, body: { Entries: [{ Meter: 'a', Usage: 1, IdempotencyKey: 'k' }] } });
      const res = await request(server.url, 'POST', PATH, {
        key: client.write,
        body: {
          Entries: [
            { Meter: 'a', Usage: 5, IdempotencyKey: 'k' },
            { Meter: 'd', Usage: 1, IdempotencyKey: 'twice' },
            { Meter: 'd', Usage: 1, IdempotencyKey: 'twice' },
            { Meter: 'd', Usage: 9, IdempotencyKey: 'twice' },
          ],
        },
      });
      expect(res.status).toBe(207);
      expect(res.body.data.Results.map((r: { Status: string }) => r.Status)).toEqual(['rejected', 'created', 'replayed', 'rejected']);
      expect(res.body.data.Results[0].Errors).toEqual([
        { Field: 'Entries[0].IdempotencyKey', Message: 'IdempotencyKey was already used with a different entry.' },
      ]);
      expect(await countEntries(db.pool, client.account.id)).toBe(2);
    });

    it('shares its key space with the Idempotency-Key of a single POST', async () => {
      const client = await createUsageClient(db.pool);
      const single = await request(server.url, 'POST', '/api/v2/usage/meters', {
        key: client.write,
        headers: { 'idempotency-key': 'order-77' },
        body: { Meter: 'api-calls', Usage: 4, OccurredAt: AT },
      });
      expect(single.status).toBe(201);
      const res = await request(server.url, 'POST', PATH, {
        key: client.write,
        body: { Entries: [{ Meter: 'api-calls', Usage: 4, OccurredAt: AT, IdempotencyKey: 'order-77' }] },
      });
      expect(res.body.data.Results[0]).toEqual({ Index: 0, Status: 'replayed', Entry: single.body.data });
      expect(await countEntries(db.pool, client.account.id)).toBe(1);
    });
  });

  it('the Idempotency-Key header replays the whole answer, and refuses another body', async () => {
    const client = await createUsageClient(db.pool);
    const headers = { 'idempotency-key': 'batch-1' };
    const body = {
      Entries: [
        { Meter: 'a', Usage: 1 },
        { Meter: '', Usage: 1 },
      ],
    };
    const first = await request(server.url, 'POST', PATH, { key: client.write, headers, body });
    expect(first.status).toBe(207);
    const again = await request(server.url, 'POST', PATH, { key: client.write, headers, body });
    expect(again.status).toBe(207);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const other = await request(server.url, 'POST', PATH, { key: client.write, headers, body: { Entries: [{ Meter: 'b', Usage: 1 }] } });
    expect(other.status).toBe(422);
    expect(other.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
    expect(await countEntries(db.pool, client.account.id)).toBe(1);
  });

  it('403 without usage:write, before the body is looked at', async () => {
    const client = await createUsageClient(db.pool);
    const res = await request(server.url, 'POST', PATH, { key: client.read, body: { Entries: 'nonsense' } });
    expect(res.status).toBe(403);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
  });

  it('a batch body over the batch limit is a 413', async () => {
    const client = await createUsageClient(db.pool);
    const Entries = Array.from({ length: 100 }, () => ({ Meter: 'm', Usage: 1, ExtraInfo: 'e'.repeat(60_000) }));
    const res = await request(server.url, 'POST', PATH, { key: client.write, body: { Entries } });
    expect(res.status).toBe(413);
    expect(await countEntries(db.pool, client.account.id)).toBe(0);
  });
});
