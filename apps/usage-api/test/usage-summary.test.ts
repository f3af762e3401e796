// GET /api/v2/usage/meters: period boundaries in the account's zone or tz, daylight saving, :30/:45 offsets
// (the raw edges beside the rollups), ordering, exact sums, the tenant wall, read-your-writes and the per-day series.
import { describe, expect, it } from 'vitest';
import { insertUsageEntries } from '@backbone/db';
import { request } from '@backbone/testkit';
import { countEntries, createUsageClient, PROBLEM_BASE, useUsageApi, utc, type UsageClient } from './support.js';

const { db, server } = useUsageApi();
const PATH = '/api/v2/usage/meters';

interface Entry {
  Meter: string;
  Usage: number;
  OccurredAt?: number;
}

async function record(client: UsageClient, entries: Entry[]): Promise<void> {
  const res = await request(server.url, 'POST', `${PATH}/batch`, { key: client.write, body: { Entries: entries } });
  expect(res.status).toBe(201);
}

async function summary(client: UsageClient, query: string) {
  const res = await request(server.url, 'GET', `${PATH}?${query}`, { key: client.read });
  expect(res.status, res.text).toBe(200);
  return res;
}

describe('GET /api/v2/usage/meters', () => {
  it("answers the seed's shape: Period, Totals, Meters, and nothing else without granularity", async () => {
    const client = await createUsageClient(db.pool);
    await record(client, [{ Meter: 'api-calls', Usage: 2, OccurredAt: utc(2026, 7, 14, 12) }]);
    const res = await summary(client, 'from=2026-07-14&to=2026-07-14');
    expect(res.body).toEqual({
      data: {
        Period: { From: '2026-07-14', To: '2026-07-14', FromTimestamp: utc(2026, 7, 14), ToTimestamp: utc(2026, 7, 14, 23, 59, 59) },
        Totals: { Usage: 2, Events: 1 },
        Meters: [{ Meter: 'api-calls', TotalUsage: 2, EventCount: 1 }],
      },
    });
  });

  it('totals stay JSON numbers whatever is stored: three entries of 1e308 (from before Usage was bounded) sum to the largest double, not null', async () => {
    const client = await createUsageClient(db.pool);
    const at = utc(2026, 8, 1, 12);
    const huge = [1, 2, 3].map((i) => ({
      accountId: client.account.id,
      meter: 'huge',
      usage: '1e308',
      extraInfo: null,
      occurredAt: at + i,
      dedupeKey: null,
      requestHash: null,
    }));
    await insertUsageEntries(db.pool, huge);
    for (const query of ['from=2026-08-01&to=2026-08-01', 'from=2026-08-01&to=2026-08-01&granularity=day']) {
      const res = await summary(client, query);
      expect(res.text).not.toContain('null');
      expect(res.body.data.Totals).toEqual({ Usage: Number.MAX_VALUE, Events: 3 });
      expect(res.body.data.Meters).toEqual([{ Meter: 'huge', TotalUsage: Number.MAX_VALUE, EventCount: 3 }]);
      if (query.includes('granularity')) expect(res.body.data.Series[0].Totals).toEqual({ Usage: Number.MAX_VALUE, Events: 3 });
    }
  });

  it('an empty period has zero totals and no meters', async () => {
    const client = await createUsageClient(db.pool);
    await record(client, [{ Meter: 'm', Usage: 1, OccurredAt: utc(2026, 7, 14, 12) }]);
    const res = await summary(client, 'from=2025-01-01&to=2025-12-31');
    expect(res.body.data.Totals).toEqual({ Usage: 0, Events: 0 });
    expect(res.body.data.Meters).toEqual([]);
  });

  it('counts entries from local 00:00:00 through 23:59:59 in the account zone, boundaries included', async () => {
    const client = await createUsageClient(db.pool, 'Europe/Berlin');
    // 2026-07-14 in Berlin (CEST, UTC+2): 2026-07-13T22:00:00Z to 2026-07-14T21:59:59Z.
    const from = utc(2026, 7, 13, 22);
    const to = utc(2026, 7, 14, 21, 59, 59);
    await record(client, [
      { Meter: 'before', Usage: 1, OccurredAt: from - 1 },
      { Meter: 'first-second', Usage: 2, OccurredAt: from },
      { Meter: 'noon', Usage: 4, OccurredAt: utc(2026, 7, 14, 10) },
      { Meter: 'last-second', Usage: 8, OccurredAt: to },
      { Meter: 'after', Usage: 16, OccurredAt: to + 1 },
    ]);
    const res = await summary(client, 'from=2026-07-14&to=2026-07-14');
    expect(res.body.data.Period).toEqual({ From: '2026-07-14', To: '2026-07-14', FromTimestamp: from, ToTimestamp: to });
    expect(res.body.data.Totals).toEqual({ Usage: 14, Events: 3 });
    expect(res.body.data.Meters.map((m: { Meter: string }) => m.Meter)).toEqual(['last-second', 'noon', 'first-second']);
  });

  it('handles the 23-hour and the 25-hour daylight-saving days', async () => {
    const client = await createUsageClient(db.pool, 'Europe/Berlin');
    await record(client, [
      // 2026-03-29: clocks jump 02:00 -> 03:00. The local day is 2026-03-28T23:00Z .. 2026-03-29T21:59:59Z.
      { Meter: 'spring', Usage: 1, OccurredAt: utc(2026, 3, 28, 22, 59, 59) },
      { Meter: 'spring', Usage: 10, OccurredAt: utc(2026, 3, 28, 23) },
      { Meter: 'spring', Usage: 100, OccurredAt: utc(2026, 3, 29, 21, 59, 59) },
      { Meter: 'spring', Usage: 1000, OccurredAt: utc(2026, 3, 29, 22) },
      // 2026-10-25: 03:00 -> 02:00. The local day is 2026-10-24T22:00Z .. 2026-10-25T22:59:59Z; 02:30 happens twice.
      { Meter: 'autumn', Usage: 1, OccurredAt: utc(2026, 10, 24, 21, 59, 59) },
      { Meter: 'autumn', Usage: 10, OccurredAt: utc(2026, 10, 25, 0, 30) },
      { Meter: 'autumn', Usage: 100, OccurredAt: utc(2026, 10, 25, 1, 30) },
      { Meter: 'autumn', Usage: 1000, OccurredAt: utc(2026, 10, 25, 22, 59, 59) },
      { Meter: 'autumn', Usage: 10000, OccurredAt: utc(2026, 10, 25, 23) },
    ]);
    const spring = await summary(client, 'from=2026-03-29&to=2026-03-29');
    expect(spring.body.data.Period.ToTimestamp - spring.body.data.Period.FromTimestamp + 1).toBe(23 * 3600);
    expect(spring.body.data.Meters).toEqual([{ Meter: 'spring', TotalUsage: 110, EventCount: 2 }]);
    const autumn = await summary(client, 'from=2026-10-25&to=2026-10-25');
    expect(autumn.body.data.Period.ToTimestamp - autumn.body.data.Period.FromTimestamp + 1).toBe(25 * 3600);
    expect(autumn.body.data.Meters).toEqual([{ Meter: 'autumn', TotalUsage: 1110, EventCount: 3 }]);
  });

  it('starts a day without a midnight at its first instant (America/Santiago, 2024-09-08 begins at 01:00)', async () => {
    const client = await createUsageClient(db.pool);
    await record(client, [
      { Meter: 'x', Usage: 1, OccurredAt: utc(2024, 9, 8, 3, 59, 59) },
      { Meter: 'x', Usage: 2, OccurredAt: utc(2024, 9, 8, 4) },
    ]);
    const res = await summary(client, 'from=2024-09-08&to=2024-09-08&tz=America/Santiago');
    expect(res.body.data.Period).toMatchObject({ FromTimestamp: utc(2024, 9, 8, 4), ToTimestamp: utc(2024, 9, 9, 3) - 1 });
    expect(res.body.data.Totals).toEqual({ Usage: 2, Events: 1 });
  });

  it.each([
    { zone: 'Asia/Kolkata', offset: 5 * 3600 + 30 * 60 },
    { zone: 'Asia/Kathmandu', offset: 5 * 3600 + 45 * 60 },
  ])('counts the sub-hour edges of a $zone period exactly', async ({ zone, offset }) => {
    const client = await createUsageClient(db.pool, zone);
    // 2026-01-14 .. 2026-01-16 local: whole UTC days in the middle, whole hours around them, part-hours at both ends.
    const from = utc(2026, 1, 14) - offset;
    const to = utc(2026, 1, 17) - offset - 1;
    const entries: Entry[] = [
      { Meter: 'out', Usage: 1, OccurredAt: from - 1 },
      { Meter: 'out', Usage: 1, OccurredAt: from - 3600 },
      { Meter: 'in', Usage: 1, OccurredAt: from },
      { Meter: 'in', Usage: 1, OccurredAt: from + 60 },
      { Meter: 'in', Usage: 1, OccurredAt: Math.ceil(from / 3600) * 3600 - 1 },
      { Meter: 'in', Usage: 1, OccurredAt: Math.ceil(from / 3600) * 3600 },
      { Meter: 'in', Usage: 1, OccurredAt: utc(2026, 1, 15) },
      { Meter: 'in', Usage: 1, OccurredAt: utc(2026, 1, 15, 12) },
      { Meter: 'in', Usage: 1, OccurredAt: utc(2026, 1, 16) - 1 },
      { Meter: 'in', Usage: 1, OccurredAt: Math.floor(to / 3600) * 3600 - 1 },
      { Meter: 'in', Usage: 1, OccurredAt: Math.floor(to / 3600) * 3600 },
      { Meter: 'in', Usage: 1, OccurredAt: to },
      { Meter: 'out', Usage: 1, OccurredAt: to + 1 },
      { Meter: 'out', Usage: 1, OccurredAt: to + 3600 },
    ];
    await record(client, entries);
    const res = await summary(client, 'from=2026-01-14&to=2026-01-16');
    expect(res.body.data.Period).toMatchObject({ FromTimestamp: from, ToTimestamp: to });
    expect(res.body.data.Meters).toEqual([{ Meter: 'in', TotalUsage: 10, EventCount: 10 }]);
    // One local day alone: only part-hours and whole hours, no whole UTC day.
    const day = await summary(client, 'from=2026-01-14&to=2026-01-14');
    const inFirstDay = entries.filter((e) => e.OccurredAt! >= from && e.OccurredAt! < from + 86_400).length;
    expect(day.body.data.Totals).toEqual({ Usage: inFirstDay, Events: inFirstDay });
  });

  it('sorts meters by total usage, highest first, then by name in code point order', async () => {
    const client = await createUsageClient(db.pool);
    const at = utc(2026, 5, 1, 8);
    await record(client, [
      { Meter: 'b', Usage: 5, OccurredAt: at },
      { Meter: 'top', Usage: 7, OccurredAt: at },
      { Meter: 'a', Usage: 2, OccurredAt: at },
      { Meter: 'a', Usage: 3, OccurredAt: at },
      { Meter: 'Z', Usage: 5, OccurredAt: at },
      { Meter: 'small', Usage: 0.5, OccurredAt: at },
    ]);
    const res = await summary(client, 'from=2026-05-01&to=2026-05-01');
    expect(res.body.data.Meters).toEqual([
      { Meter: 'top', TotalUsage: 7, EventCount: 1 },
      { Meter: 'Z', TotalUsage: 5, EventCount: 1 },
      { Meter: 'a', TotalUsage: 5, EventCount: 2 },
      { Meter: 'b', TotalUsage: 5, EventCount: 1 },
      { Meter: 'small', TotalUsage: 0.5, EventCount: 1 },
    ]);
  });

  it('sums exactly: 0.1 + 0.2 is 0.3', async () => {
    const client = await createUsageClient(db.pool);
    const at = utc(2026, 5, 2, 8);
    for (const Usage of [0.1, 0.2]) {
      expect((await request(server.url, 'POST', PATH, { key: client.write, body: { Meter: 'fraction', Usage, OccurredAt: at } })).status).toBe(201);
    }
    const res = await summary(client, 'from=2026-05-02&to=2026-05-02');
    expect(res.body.data.Totals.Usage).toBe(0.3);
    expect(res.text).toContain('"TotalUsage":0.3,');
    expect(res.text).toContain('"Usage":0.3,');
    // A thousand tenths are 100, not 99.9999999999986.
    const many = await createUsageClient(db.pool);
    await record(
      many,
      Array.from({ length: 1000 }, () => ({ Meter: 'tenth', Usage: 0.1, OccurredAt: at })),
    );
    expect((await summary(many, 'from=2026-05-02&to=2026-05-02')).body.data.Totals).toEqual({ Usage: 100, Events: 1000 });
  });

  it('tz overrides the account zone', async () => {
    const client = await createUsageClient(db.pool, 'UTC');
    await record(client, [{ Meter: 'late', Usage: 1, OccurredAt: utc(2026, 7, 14, 23, 30) }]);
    expect((await summary(client, 'from=2026-07-14&to=2026-07-14')).body.data.Totals.Events).toBe(1);
    const berlin = await summary(client, 'from=2026-07-14&to=2026-07-14&tz=Europe/Berlin');
    expect(berlin.body.data.Period).toMatchObject({ FromTimestamp: utc(2026, 7, 13, 22), ToTimestamp: utc(2026, 7, 14, 21, 59, 59) });
    expect(berlin.body.data.Totals.Events).toBe(0);
    expect((await summary(client, 'from=2026-07-15&to=2026-07-15&tz=Europe/Berlin')).body.data.Totals.Events).toBe(1);
    const la = await summary(client, 'from=2026-07-14&to=2026-07-14&tz=America/Los_Angeles');
    expect(la.body.data.Period.FromTimestamp).toBe(utc(2026, 7, 14, 7));
    expect(la.body.data.Totals.Events).toBe(1);
  });

  it("never shows another account's entries", async () => {
    const mine = await createUsageClient(db.pool);
    const theirs = await createUsageClient(db.pool);
    const at = utc(2026, 6, 1, 12);
    await record(theirs, [{ Meter: 'secret', Usage: 99, OccurredAt: at }]);
    await record(mine, [{ Meter: 'mine', Usage: 1, OccurredAt: at }]);
    const res = await summary(mine, 'from=2026-06-01&to=2026-06-01');
    expect(res.body.data.Meters).toEqual([{ Meter: 'mine', TotalUsage: 1, EventCount: 1 }]);
    const series = await summary(mine, 'from=2026-06-01&to=2026-06-01&granularity=day');
    expect(series.text).not.toContain('secret');
  });

  it('includes every entry whose POST returned 201, also when they were concurrent', async () => {
    const client = await createUsageClient(db.pool);
    const n = 60;
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) => request(server.url, 'POST', PATH, { key: client.write, body: { Meter: `m${i % 4}`, Usage: 0.5 } })),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const res = await summary(client, `from=${yesterday}&to=${today}`);
    expect(res.body.data.Totals).toEqual({ Usage: n / 2, Events: n });
  });

  describe('granularity=day', () => {
    it('adds a Series with every local day whose sums equal the summary', async () => {
      const client = await createUsageClient(db.pool, 'Asia/Kolkata');
      const offset = 5.5 * 3600;
      const start = utc(2026, 3, 1) - offset;
      // 400 entries spread over 5 local days at uneven times, two meters, decimal amounts.
      const entries: Entry[] = Array.from({ length: 400 }, (_, i) => ({
        Meter: i % 3 === 0 ? 'sms' : 'api-calls',
        Usage: Number(((i % 7) * 0.1 + 0.1).toFixed(1)),
        OccurredAt: start + ((i * 1_079) % (5 * 86_400)),
      }));
      await record(client, entries);
      const plain = await summary(client, 'from=2026-03-01&to=2026-03-07');
      const res = await summary(client, 'from=2026-03-01&to=2026-03-07&granularity=day');
      const { Series, ...rest } = res.body.data;
      expect(rest).toEqual(plain.body.data);
      expect(Series.map((d: { Date: string }) => d.Date)).toEqual([
        '2026-03-01',
        '2026-03-02',
        '2026-03-03',
        '2026-03-04',
        '2026-03-05',
        '2026-03-06',
        '2026-03-07',
      ]);
      expect(Series[6]).toEqual({ Date: '2026-03-07', Totals: { Usage: 0, Events: 0 }, Meters: [] });
      for (const [index, day] of Series.entries()) {
        const dayStart = start + index * 86_400;
        const expected = entries.filter((e) => e.OccurredAt! >= dayStart && e.OccurredAt! < dayStart + 86_400);
        expect(day.Totals.Events).toBe(expected.length);
        expect(day.Totals.Usage).toBeCloseTo(
          expected.reduce((s, e) => s + e.Usage, 0),
          9,
        );
      }
      const events = (meter: string) =>
        Series.reduce(
          (sum: number, day: { Meters: Array<{ Meter: string; EventCount: number }> }) => sum + (day.Meters.find((m) => m.Meter === meter)?.EventCount ?? 0),
          0,
        );
      for (const meter of plain.body.data.Meters) expect(events(meter.Meter)).toBe(meter.EventCount);
      expect(Series.reduce((s: number, d: { Totals: { Events: number } }) => s + d.Totals.Events, 0)).toBe(400);
    });

    it('gives the daylight-saving days their 23 and 25 hours', async () => {
      const client = await createUsageClient(db.pool, 'Europe/Berlin');
      await record(client, [
        { Meter: 'x', Usage: 1, OccurredAt: utc(2026, 3, 29, 21, 59, 59) },
        { Meter: 'x', Usage: 2, OccurredAt: utc(2026, 3, 29, 22) },
      ]);
      const res = await summary(client, 'from=2026-03-29&to=2026-03-30&granularity=day');
      expect(res.body.data.Series.map((d: { Totals: { Usage: number } }) => d.Totals.Usage)).toEqual([1, 2]);
    });
  });

  describe('validation and access', () => {
    const cases: Array<{ name: string; query: string; field: string }> = [
      { name: 'from missing', query: 'to=2026-01-31', field: 'from' },
      { name: 'to missing', query: 'from=2026-01-01', field: 'to' },
      { name: 'from not a calendar date (2026-02-30)', query: 'from=2026-02-30&to=2026-03-31', field: 'from' },
      { name: 'to not a calendar date (2026-13-01)', query: 'from=2026-01-01&to=2026-13-01', field: 'to' },
      { name: 'from in another format', query: 'from=01/02/2026&to=2026-03-31', field: 'from' },
      { name: 'from empty', query: 'from=&to=2026-03-31', field: 'from' },
      { name: 'from given twice', query: 'from=2026-01-01&from=2026-01-02&to=2026-03-31', field: 'from' },
      { name: 'to before from', query: 'from=2026-02-01&to=2026-01-31', field: 'to' },
      { name: 'a period over 3660 days', query: 'from=2016-01-01&to=2026-12-31', field: 'to' },
      { name: 'a series over 366 days', query: 'from=2025-01-01&to=2026-01-02&granularity=day', field: 'to' },
      { name: 'an unknown tz', query: 'from=2026-01-01&to=2026-01-31&tz=Mars/Olympus_Mons', field: 'tz' },
      { name: 'a tz that is an offset, not an IANA name', query: 'from=2026-01-01&to=2026-01-31&tz=%2B05:30', field: 'tz' },
      { name: 'an unknown granularity', query: 'from=2026-01-01&to=2026-01-31&granularity=week', field: 'granularity' },
    ];

    it.each(cases)('422 for $name', async ({ query, field }) => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'GET', `${PATH}?${query}`, { key: client.read });
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/validation`, status: 422, instance: PATH });
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
      expect(res.body.detail).toContain(field);
    });

    it('says what a date must look like', async () => {
      const client = await createUsageClient(db.pool);
      const res = await request(server.url, 'GET', `${PATH}?from=2026-02-30&to=2026-03-01`, { key: client.read });
      expect(res.body.detail).toBe('from must be a calendar date in the form YYYY-MM-DD, from 0001-01-01 to 9999-12-31.');
    });

    it('accepts the longest period, a leap day and a leap year of series', async () => {
      const client = await createUsageClient(db.pool);
      expect((await request(server.url, 'GET', `${PATH}?from=2016-01-01&to=2026-01-07`, { key: client.read })).status).toBe(200);
      expect((await request(server.url, 'GET', `${PATH}?from=2028-02-29&to=2028-02-29`, { key: client.read })).status).toBe(200);
      const series = await request(server.url, 'GET', `${PATH}?from=2028-01-01&to=2028-12-31&granularity=day`, { key: client.read });
      expect(series.status).toBe(200);
      expect(series.body.data.Series).toHaveLength(366);
    });

    it('403 for a key without usage:read, 401 without a valid key', async () => {
      const client = await createUsageClient(db.pool);
      const forbidden = await request(server.url, 'GET', `${PATH}?from=2026-01-01&to=2026-01-31`, { key: client.write });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
      const noKey = await request(server.url, 'GET', `${PATH}?from=2026-01-01&to=2026-01-31`);
      expect(noKey.status).toBe(401);
      expect(noKey.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const unknown = await request(server.url, 'GET', `${PATH}?from=2026-01-01&to=2026-01-31`, { key: 'bk_unknown' });
      expect(unknown.status).toBe(401);
      expect(await countEntries(db.pool, client.account.id)).toBe(0);
    });
  });
});
