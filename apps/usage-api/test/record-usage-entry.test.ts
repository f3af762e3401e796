// POST /api/v2/usage/meters: the happy path, every validation rule, authentication and scopes, Idempotency-Key.
import { describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '@backbone/db';
import { foldAllUsage, request, sendRaw, waitFor, type ApiResponse } from '@backbone/testkit';
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
    expect(res.body).toEqual({
      data: { ID: expect.any(Number), Meter: 'api-calls', Usage: 2.5, ExtraInfo: '{"Endpoint":"/bookings"}', OccurredAt: 1_767_225_600 },
    });
    const stored = await db.pool.query(
      `SELECT meter, usage::text AS usage, extra_info, extract(epoch FROM occurred_at)::int AS at FROM usage_entries WHERE id = $1 AND account_id = $2`,
      [res.body.data.ID, client.account.id],
    );
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
      { Meter: 'x', Usage: 1e15 },
      { Meter: 'x', Usage: 999_999_999_999_999 },
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
    // The largest amounts are integers below 2**53: kept to the unit.
    const largest = await db.pool.query(`SELECT usage::text AS usage FROM usage_entries WHERE account_id = $1 AND usage >= 1e14 ORDER BY usage_entries.usage`, [
      client.account.id,
    ]);
    expect(largest.rows).toEqual([{ usage: '999999999999999' }, { usage: '1000000000000000' }]);
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
      { name: 'Usage above the maximum (1e15 + 0.25)', field: 'Usage', body: { Meter: 'm', Usage: 1e15 + 0.25 } },
      { name: 'Usage 1e308', field: 'Usage', body: { Meter: 'm', Usage: 1e308 } },
      { name: 'Usage 2**53 + 1 (read as 2**53, above the maximum)', field: 'Usage', rawBody: '{"Meter":"m","Usage":9007199254740993}' },
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
    const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    const post = (key: string, headers: string, body: string) =>
      `POST ${PATH} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${headers}\r\n${body}`;
    // Each case sends its bytes with the client's usage:write key: through fetch, or as they are on a socket of their own.
    const cases: Array<{ name: string; send: (key: string) => Promise<ApiResponse>; status: number; type: string }> = [
      ...[
        { name: 'Meter of invalid UTF-8 (0xff 0xfe)', body: bytes('{"Meter":"', [0xff, 0xfe], '","Usage":1}') },
        { name: 'ExtraInfo with a lone continuation byte', body: bytes('{"Meter":"m","Usage":1,"ExtraInfo":"a', [0x80], 'b"}') },
        { name: 'Meter with an overlong encoding', body: bytes('{"Meter":"', [0xc0, 0xaf], '","Usage":1}') },
        { name: 'Meter with a surrogate encoded in UTF-8', body: bytes('{"Meter":"', [0xed, 0xb0, 0x80], '","Usage":1}') },
      ].map(({ name, body }) => ({
        name,
        send: (key: string) => request(server.url, 'POST', PATH, { key, rawBody: body, headers: { 'content-type': 'application/json' } }),
        status: 400,
        type: 'malformed-json',
      })),
      {
        name: 'headers over the 16 KB limit',
        send: (key) => request(server.url, 'POST', PATH, { key, body: { Meter: 'm', Usage: 1 }, headers: { 'x-padding': 'p'.repeat(20_000) } }),
        status: 431,
        type: 'headers-too-large',
      },
      {
        name: 'a body shorter than its Content-Length, then the client ends its side',
        send: (key) => sendRaw(server.url, post(key, 'Content-Length: 200\r\n', '{"Meter":"m","Usage":1}'), { end: true }),
        status: 400,
        type: 'invalid-request',
      },
      {
        name: 'a chunked body that ends with the connection',
        send: (key) => sendRaw(server.url, post(key, 'Transfer-Encoding: chunked\r\n', '17\r\n{"Meter":"m","Usage":1}\r\n'), { end: true }),
        status: 400,
        type: 'invalid-request',
      },
    ];

    it.each(cases)('$name: $status $type, nothing stored', async ({ send, status, type }) => {
      const client = await createUsageClient(db.pool);
      const res = await send(client.write);
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/${type}`, status, title: expect.any(String), detail: expect.any(String), instance: PATH });
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });

    it('malformed JSON is a 400 problem', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, { key: client.write, rawBody: '{"Meter":', headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.type).toBe(`${PROBLEM_BASE}/malformed-json`);
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });

    it('a body that is not JSON is a 415 problem', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'POST', PATH, {
        key: client.write,
        rawBody: 'Meter=m&Usage=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
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
      for (const body of [
        { Meter: 'm', Usage: 2 },
        { Meter: 'other', Usage: 1 },
        { Meter: 'm', Usage: 1, ExtraInfo: 'x' },
        { Meter: 'm', Usage: 1, OccurredAt: 5 },
      ]) {
        const res = await request(server.url, 'POST', PATH, { key: client.write, headers, body });
        expect(res.status).toBe(422);
        expect(res.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
      }
      expect(await countEntries(db.pool, client.account.id)).toBe(1);
    });

    it('concurrent requests with one key store one entry; the others get 409 while it is uncommitted, or its replay once it committed', async () => {
      const client = await createUsageClient(db.pool);
      const headers = { 'idempotency-key': 'burst' };
      const occurredAt = 1_767_225_600;
      const send = () => request(server.url, 'POST', PATH, { key: client.write, headers, body: { Meter: 'm', Usage: 3, OccurredAt: occurredAt } });
      // The first request's statement inserts its entry and then waits, uncommitted: a trigger of this test (for this
      // account only) makes every insert take an advisory lock the test holds. The next group commit, whose statement
      // begins meanwhile, waits on the first's entry. Releasing the lock lets both go on.
      const lockKey = 27_000_027;
      await db.pool.query(`CREATE FUNCTION wait_for_test_lock() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_advisory_xact_lock_shared(${lockKey}); RETURN NEW; END $$`);
      await db.pool.query(
        `CREATE TRIGGER wait_for_test_lock AFTER INSERT ON usage_entries FOR EACH ROW
          WHEN (NEW.account_id = '${client.account.id}') EXECUTE FUNCTION wait_for_test_lock()`,
      );
      const holder = await db.pool.connect();
      let answers: Awaited<ReturnType<typeof send>>[];
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
        const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        const pending = Promise.all(Array.from({ length: 12 }, send));
        // Both statements are in: one waits on the holder, and another waits on that one.
        const chained = async () =>
          Number(
            (
              await db.pool.query<{ n: string }>(
                `SELECT count(*) AS n FROM pg_stat_activity second, pg_stat_activity first
                  WHERE $1 = ANY(pg_blocking_pids(first.pid)) AND first.pid = ANY(pg_blocking_pids(second.pid))`,
                [holderPid],
              )
            ).rows[0]!.n,
          );
        await waitFor('a statement waiting on the holder, and another on that one', async () => (await chained()) >= 1, 60_000, 20);
        await holder.query('ROLLBACK');
        answers = await pending;
      } finally {
        await holder.query('ROLLBACK').catch(() => undefined);
        holder.release();
        await db.pool.query('DROP TRIGGER wait_for_test_lock ON usage_entries; DROP FUNCTION wait_for_test_lock()');
      }

      const created = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
      const replayed = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === 'true');
      const inProgress = answers.filter((a) => a.status === 409);
      expect(created).toHaveLength(1);
      expect(created.length + replayed.length + inProgress.length).toBe(12);
      expect(inProgress.length).toBeGreaterThanOrEqual(1);
      for (const res of inProgress) expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/idempotency-in-progress`, status: 409 });
      for (const res of replayed) expect(res.text).toBe(created[0]!.text);
      expect(await countEntries(db.pool, client.account.id)).toBe(1);
      await foldAllUsage(db.pool);
      const rollups = await db.pool.query<{ events: string }>('SELECT sum(event_count) AS events FROM usage_rollups_hourly WHERE account_id = $1', [
        client.account.id,
      ]);
      expect(Number(rollups.rows[0]!.events)).toBe(1);

      // Once the first has committed, a retry gets its answer again.
      const retry = await send();
      expect(retry.status).toBe(201);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.text).toBe(created[0]!.text);
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
