// An Idempotency-Key is the caller's own: two keys of one account sending the same Idempotency-Key (on a single POST,
// on a batch entry or on a whole batch) are two requests, each with its own entry and answer; one caller's key keeps
// its single POST and its batch entries in one key space (both add to the same ledger).
import { describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { countEntries, createUsageClient, PROBLEM_BASE, useUsageApi, utc } from './support.js';

const { db, server } = useUsageApi();
const SINGLE = '/api/v2/usage/meters';
const BATCH = '/api/v2/usage/meters/batch';
const AT = utc(2026, 4, 1, 12);

describe('Idempotency-Key scope on usage', () => {
  it('gives another key of the account its own entry for the same key and body on a single POST', async () => {
    const client = await createUsageClient(db.pool);
    const otherWriter = await client.keyWith(['usage:write']);
    const headers = { 'idempotency-key': 'shared-1' };
    const body = { Meter: 'sms', Usage: 2, OccurredAt: AT, ExtraInfo: '{"Secret":"first caller"}' };
    const first = await request(server.url, 'POST', SINGLE, { key: client.write, headers, body });
    const second = await request(server.url, 'POST', SINGLE, { key: otherWriter, headers, body });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.ID).not.toBe(first.body.data.ID);
    expect(await countEntries(db.pool, client.account.id)).toBe(2);
    // Each caller's own retry still replays its own entry.
    const retry = await request(server.url, 'POST', SINGLE, { key: otherWriter, headers, body });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.text).toBe(second.text);
    expect(await countEntries(db.pool, client.account.id)).toBe(2);
  });

  it("keeps batch entry keys apart per caller, and shares them with the same caller's single POST", async () => {
    const client = await createUsageClient(db.pool);
    const otherWriter = await client.keyWith(['usage:write']);
    const single = await request(server.url, 'POST', SINGLE, {
      key: client.write,
      headers: { 'idempotency-key': 'order-9' },
      body: { Meter: 'orders', Usage: 1, OccurredAt: AT },
    });
    const Entries = [{ Meter: 'orders', Usage: 1, OccurredAt: AT, IdempotencyKey: 'order-9' }];
    const theirs = await request(server.url, 'POST', BATCH, { key: otherWriter, body: { Entries } });
    expect(theirs.body.data).toMatchObject({ Created: 1, Replayed: 0 });
    expect(theirs.body.data.Results[0].Entry.ID).not.toBe(single.body.data.ID);
    const mine = await request(server.url, 'POST', BATCH, { key: client.write, body: { Entries } });
    expect(mine.body.data.Results[0]).toEqual({ Index: 0, Status: 'replayed', Entry: single.body.data });
    expect(await countEntries(db.pool, client.account.id)).toBe(2);
  });

  it("keeps whole-batch keys apart per caller, and refuses a caller's key on the other usage path", async () => {
    const client = await createUsageClient(db.pool);
    const otherWriter = await client.keyWith(['usage:write']);
    const headers = { 'idempotency-key': 'batch-shared' };
    const body = { Entries: [{ Meter: 'a', Usage: 1, OccurredAt: AT }] };
    const first = await request(server.url, 'POST', BATCH, { key: client.write, headers, body });
    const second = await request(server.url, 'POST', BATCH, { key: otherWriter, headers, body });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.data.Results[0].Entry.ID).not.toBe(first.body.data.Results[0].Entry.ID);
    expect(await countEntries(db.pool, client.account.id)).toBe(2);
    // The same caller's whole-batch key is a claim on that batch request: sent with another body, it is a conflict.
    const reused = await request(server.url, 'POST', BATCH, { key: client.write, headers, body: { Entries: [{ Meter: 'b', Usage: 1 }] } });
    expect(reused.status).toBe(422);
    expect(reused.body.type).toBe(`${PROBLEM_BASE}/idempotency-conflict`);
    expect(await countEntries(db.pool, client.account.id)).toBe(2);
  });
});
