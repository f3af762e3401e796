// The sync feed: a partner's bookings in the order of their last change, keyset-paged with Next, continued later
// with Resume. A pass that pages on while bookings are written misses none that existed when it started and repeats
// none. Each test uses a partner of its own, so it reads only its own feed.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingChangesSchema, compileValidator } from '@backbone/contracts';
import { createApiKey } from '@backbone/db';
import { createTestTimeslot, futureDate, request, waitFor, type TestTimeslot } from '@backbone/testkit';
import { bookingBody, bookingPath, createOperator, usePartnerApi, type Operator } from './support.js';

const { db, server } = usePartnerApi();
const BOOKING = '/api/v2/ota/partner/booking';
const SYNC = '/api/v2/ota/partner/bookings';
let op: Operator;
let slot: TestTimeslot;

beforeAll(async () => {
  op = await createOperator(db.pool, { activity: { maxParticipants: 10 } });
  slot = await createTestTimeslot(db.pool, op.activity, { date: futureDate(12), time: '10:00', capacity: 100_000 });
});

const validateChanges = compileValidator(bookingChangesSchema, 'body');
const newPartnerKey = async () => (await createApiKey(db.pool, op.account.id, { name: 'sync', scopes: ['ota'] })).secret;

async function book(key: string, hold = false): Promise<string> {
  const res = await request(server.url, 'POST', BOOKING, { key, body: bookingBody(op.activity, slot, hold ? { Hold: { Minutes: 15 } } : {}) });
  expect(res.status).toBe(201);
  return res.body.Reference;
}

/**
 * Waits until every booking change so far is servable: sync serves only changes older than every transaction still
 * running on the server, and other test files share it, so a page read at once could lag behind for a moment.
 */
async function settled() {
  await waitFor(
    'booking changes servable by sync',
    async () => {
      const { rows } = await db.pool.query<{ ok: boolean }>(
        `SELECT coalesce(bool_and(change_xid < pg_snapshot_xmin(pg_current_snapshot())), true) AS ok FROM bookings`,
      );
      return rows[0]!.ok;
    },
    10_000,
    10,
  );
}

async function page(key: string, query: string, settle = true) {
  if (settle) await settled();
  const res = await request(server.url, 'GET', `${SYNC}?${query}`, { key });
  expect(res.status).toBe(200);
  return res.body as { Bookings: Array<{ Reference: string; Status: string; UpdatedAt: string }>; Next: string | null; Resume: string };
}

/** Follows Next from the first query to the end of the pass; answers every reference served and the last page. */
async function pass(key: string, first: string, between?: () => Promise<void>) {
  // A pass racing a writer settles only before it starts: its pages must not wait for the writer.
  const settle = between === undefined;
  const served: string[] = [];
  let current = await page(key, first, settle);
  let pages = 1;
  for (;;) {
    served.push(...current.Bookings.map((b) => b.Reference));
    if (current.Next === null) return { served, last: current, pages };
    await between?.();
    current = await page(key, `Limit=${new URLSearchParams(first).get('Limit') ?? 100}&Cursor=${current.Next}`, settle);
    pages++;
  }
}

describe('sync', () => {
  it("serves the partner's bookings in change order, Limit per page, Next null at the end", async () => {
    const key = await newPartnerKey();
    const refs: string[] = [];
    for (let i = 0; i < 7; i++) refs.push(await book(key, i % 2 === 0));
    const first = await page(key, 'Limit=3');
    expect(first.Bookings.map((b) => b.Reference)).toEqual(refs.slice(0, 3));
    expect(first.Next).toEqual(expect.any(String));
    const { served, last, pages } = await pass(key, 'Limit=3');
    expect(served).toEqual(refs);
    expect(pages).toBe(3);
    expect(last.Next).toBeNull();
    expect(last.Bookings.at(-1)).toMatchObject({ Reference: refs[6], Status: 'on_hold' });
  });

  it('serves each booking exactly as its lookup answers it, in every status, and the page matches its schema', async () => {
    const key = await newPartnerKey();
    const confirmed = await book(key);
    const held = await book(key, true);
    const lapsed = await book(key, true);
    const cancelled = await book(key);
    const noPhone = (
      await request(server.url, 'POST', BOOKING, {
        key,
        body: bookingBody(op.activity, slot, {
          Customer: { FirstName: 'Zoë', LastName: 'O\'Brien "Jr"', Email: 'zoe@example.com' },
          PaymentReference: undefined,
        }),
      })
    ).body.Reference as string;
    expect((await request(server.url, 'POST', bookingPath(cancelled, 'cancel'), { key, body: { Reason: 'Rain, "heavy"' } })).status).toBe(200);
    // A hold whose expiry has passed, not yet marked by the sweeper: expired in every answer.
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [lapsed]);
    const feed = await page(key, 'Limit=10');
    expect(validateChanges(feed)).toEqual([]);
    const refs = [confirmed, held, lapsed, noPhone, cancelled];
    expect(feed.Bookings.map((b) => b.Reference).sort()).toEqual([...refs].sort());
    for (const booking of feed.Bookings) {
      const lookup = await request(server.url, 'GET', bookingPath(booking.Reference), { key });
      expect(booking).toEqual(lookup.body);
    }
    expect(Object.fromEntries(feed.Bookings.map((b) => [b.Reference, b.Status]))).toEqual({
      [confirmed]: 'confirmed',
      [held]: 'on_hold',
      [lapsed]: 'expired',
      [noPhone]: 'confirmed',
      [cancelled]: 'cancelled',
    });
  });

  it('a page exactly full answers a Next whose page is empty with Next null', async () => {
    const key = await newPartnerKey();
    const refs = [await book(key), await book(key)];
    const full = await page(key, 'Limit=2');
    expect(full.Bookings.map((b) => b.Reference)).toEqual(refs);
    const empty = await page(key, `Limit=2&Cursor=${full.Next}`);
    expect(empty).toMatchObject({ Bookings: [], Next: null, Resume: expect.any(String) });
  });

  it('Resume continues later with the new changes only, a changed booking at its latest state', async () => {
    const key = await newPartnerKey();
    const old = [await book(key), await book(key), await book(key, true)];
    const { served, last } = await pass(key, 'Limit=10');
    expect(served).toEqual(old);
    expect((await page(key, `Cursor=${last.Resume}`)).Bookings).toEqual([]);

    const fresh = await book(key);
    expect((await request(server.url, 'POST', bookingPath(old[0]!, 'cancel'), { key, body: { Reason: 'moved' } })).status).toBe(200);
    expect((await request(server.url, 'POST', bookingPath(old[2]!, 'confirm'), { key, body: {} })).status).toBe(200);
    const later = await page(key, `Cursor=${last.Resume}`);
    expect(later.Bookings.map((b) => [b.Reference, b.Status])).toEqual([
      [fresh, 'confirmed'],
      [old[0], 'cancelled'],
      [old[2], 'confirmed'],
    ]);
    expect(later.Next).toBeNull();
    expect((await page(key, `Cursor=${later.Resume}`)).Bookings).toEqual([]);
  });

  it('UpdatedSince leaves out bookings whose last change is older', async () => {
    const key = await newPartnerKey();
    await book(key);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const after = [await book(key), await book(key)];
    expect((await page(key, `UpdatedSince=${since}`)).Bookings.map((b) => b.Reference)).toEqual(after);
    // The cursor carries the instant: the next page of a pass started with UpdatedSince keeps to it.
    const first = await page(key, `UpdatedSince=${since}&Limit=1`);
    const second = await page(key, `Limit=1&Cursor=${first.Next}`);
    expect([...first.Bookings, ...second.Bookings].map((b) => b.Reference)).toEqual(after);
  });

  it('paging under concurrent writes loses and repeats nothing: every booking that existed when the pass started appears once', async () => {
    const key = await newPartnerKey();
    const existing: string[] = [];
    for (let i = 0; i < 40; i++) existing.push(await book(key, i % 3 === 0));
    await settled();
    // A writer books on, and cancels some of the newcomers, while the pass pages with a small Limit. It writes a
    // bounded number of batches: a writer faster than the pass (a loaded machine slows the pages more than the
    // writes) would otherwise keep the feed growing ahead of it and the pass would never reach the end.
    let writing = true;
    const written: string[] = [];
    const changedTwice = new Set<string>();
    const writer = (async () => {
      for (let batches = 0; writing && batches < 12; batches++) {
        const batch = await Promise.all(Array.from({ length: 4 }, () => book(key)));
        written.push(...batch);
        changedTwice.add(batch[0]!);
        await request(server.url, 'POST', bookingPath(batch[0]!, 'cancel'), { key });
      }
    })();
    const { served, last } = await pass(key, 'Limit=3', () => new Promise((resolve) => setTimeout(resolve, 5)));
    writing = false;
    await writer;

    // A booking comes once per change the pass reaches: only those created and then cancelled during the pass may
    // come twice (created, then cancelled further on); nothing else repeats.
    const counts = new Map<string, number>();
    for (const reference of served) counts.set(reference, (counts.get(reference) ?? 0) + 1);
    for (const [reference, count] of counts) expect(count === 1 || (count === 2 && changedTwice.has(reference))).toBe(true);
    for (const reference of existing) expect(served.filter((r) => r === reference)).toHaveLength(1);
    expect(served.slice(0, existing.length)).toEqual(existing);
    expect(written.length).toBeGreaterThan(0);

    // What the pass did not reach, Resume picks up: together every booking is served, each once per change.
    const rest = await pass(key, `Limit=500&Cursor=${last.Resume}`);
    const everything = new Set([...served, ...rest.served]);
    for (const reference of [...existing, ...written]) expect(everything.has(reference)).toBe(true);
  });

  it("another key of the same partner reads the same feed; the operator's other partners' bookings are not in it", async () => {
    const key = await newPartnerKey();
    const mine = await book(key);
    const theirs = await book(op.ota);
    const { rows } = await db.pool.query<{ partner_id: string }>(`SELECT partner_id FROM bookings WHERE reference = $1`, [mine]);
    const sibling = (await createApiKey(db.pool, op.account.id, { name: 'sibling', scopes: ['ota'], partnerId: rows[0]!.partner_id })).secret;
    const feed = await page(sibling, 'Limit=500');
    expect(feed.Bookings.map((b) => b.Reference)).toEqual([mine]);
    expect(feed.Bookings.map((b) => b.Reference)).not.toContain(theirs);
  });

  it.each([
    ['a cursor that is not base64 of ours', 'Cursor=bm90LWEtY3Vyc29y'],
    ['a cursor with a negative id', `Cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', '1', -1])).toString('base64url')}`],
    ['a cursor with a bad instant', `Cursor=${Buffer.from(JSON.stringify(['yesterday', '1', 1])).toString('base64url')}`],
    ['a cursor with a non-numeric xid', `Cursor=${Buffer.from(JSON.stringify(['2026-01-01T00:00:00.000Z', '1 OR 1=1', 1])).toString('base64url')}`],
    ['an instant without offset', 'UpdatedSince=2026-01-01T00:00:00'],
    ['a date instead of an instant', 'UpdatedSince=2026-01-01'],
    ['Limit 0', 'Limit=0'],
    ['Limit 501', 'Limit=501'],
  ])('%s: 422', async (_name, query) => {
    const res = await request(server.url, 'GET', `${SYNC}?${query}`, { key: op.ota });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
