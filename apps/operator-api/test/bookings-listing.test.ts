// The bookings list's search ignores accents and case (full names too, in the list and the CSV alike, from the walk
// and from the trigram index), its order by slot time pages without a missed or repeated row across ties, cursors
// keep to their order, and the panel's Edit can clear a phone number.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity } from '@backbone/testkit';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator } from './support.js';

const { db, server } = useOperatorApi();

type Listed = { Reference: string; StartsAt: string; Channel: string; Customer: { FirstName: string; LastName: string; Phone: string | null } };

describe('search without accents or case', () => {
  // The oldest bookings lie more than the walk's 4,000 ids below the newest, where only the trigram index finds them;
  // the newest are found by the walk. Both sides hold accented names and a plain one.
  let owner: Operator;
  const date = dayFromNow(4);
  const people: Record<string, string> = {};
  beforeAll(async () => {
    owner = await createOperator(db.pool);
    await createSlot(db.pool, owner, date, '09:00', 10000);
    const named = async (firstName: string, lastName: string, email: string) => {
      people[`${firstName} ${lastName}`] = (await book(db.pool, owner, { date, time: '09:00' }, { firstName, lastName, email })).Reference;
    };
    await named('João', 'Pereira', 'jp1@example.com');
    await named('Renée', 'Ørsted', 'ro@example.com');
    await named('Jose', 'Alvarez', 'ja@example.com');
    await db.pool.query(
      `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer)
       SELECT $1, 'F' || lpad(g::text, 7, '0'), a.id, t.id, 'online', 1, jsonb_build_object('FirstName', 'Pat', 'LastName', 'Doe', 'Email', 'pat' || g || '@example.com')
         FROM generate_series(1, 4500) g, activities a JOIN timeslots t ON t.activity_id = a.id
        WHERE a.account_id = $1 ORDER BY g`,
      [owner.account.id],
    );
    await named('Zoë', 'Saldaña', 'zs@example.com');
    await named('Mina', 'Müller', 'mm@example.com');
    await named('Søren', 'Straße', 'ss@example.com');
  });

  it.each([
    // Oldest: from the index.
    ['Joao Pereira', 'João Pereira'],
    ['joão pereira', 'João Pereira'],
    ['JOAO', 'João Pereira'],
    ['renee orsted', 'Renée Ørsted'],
    ['José', 'Jose Alvarez'],
    ['JOSÉ ALVAREZ', 'Jose Alvarez'],
    // Newest: from the walk.
    ['Zoe', 'Zoë Saldaña'],
    ['zoë saldaña', 'Zoë Saldaña'],
    ['ZOE SALDANA', 'Zoë Saldaña'],
    ['muller', 'Mina Müller'],
    ['MÜLLER', 'Mina Müller'],
    ['Mina Muller', 'Mina Müller'],
    ['strasse', 'Søren Straße'],
    ['soren', 'Søren Straße'],
  ])('Q=%s finds %s in the list, in slot order and in the CSV', async (q, who) => {
    const client = await signedIn(server.url, owner.staff.email);
    const query = `Q=${encodeURIComponent(q)}`;
    const listed = await client.send('GET', `/api/v2/operator/bookings?${query}`);
    expect(listed.status).toBe(200);
    expect(listed.body.Bookings.map((b: Listed) => b.Reference)).toEqual([people[who]]);
    const bySlot = await client.send('GET', `/api/v2/operator/bookings?${query}&Sort=starts_at`);
    expect(bySlot.body.Bookings.map((b: Listed) => b.Reference)).toEqual([people[who]]);
    const csv = await client.send('GET', `/api/v2/operator/bookings.csv?${query}`);
    expect(csv.status).toBe(200);
    const rows = csv.text.split('\r\n').slice(1, -1);
    expect(rows.map((r) => r.split(',')[0])).toEqual([people[who]]);
    expect(rows[0]).toContain(who.replace(' ', ','));
  });

  it('finds nothing for a name nobody has, accented or not', async () => {
    const client = await signedIn(server.url, owner.staff.email);
    for (const q of ['Joana', 'Pereiró', 'Zoey'])
      expect((await client.send('GET', `/api/v2/operator/bookings?Q=${encodeURIComponent(q)}`)).body.Bookings, q).toEqual([]);
  });
});

describe('Sort=starts_at', () => {
  let owner: Operator;
  /** Every booking in slot order: by its slot's start, then in the order it was made. */
  let expected: string[];
  const [d1, d2, d3] = [dayFromNow(6), dayFromNow(7), dayFromNow(8)];
  beforeAll(async () => {
    owner = await createOperator(db.pool);
    // A second activity whose 09:00 starts with the first's: the two timeslots' bookings interleave by id.
    const other = await createTestActivity(db.pool, owner.account.id, { timeZone: 'Europe/Lisbon', name: 'Bay tour' });
    await createSlot(db.pool, owner, d1, '15:00');
    await createSlot(db.pool, owner, d2, '09:00');
    await createSlot(db.pool, owner, d2, '09:00', 100, other);
    await createSlot(db.pool, owner, d3, '08:00');
    const made: Array<{ reference: string; startsAt: number; order: number }> = [];
    const plan: Array<[string, string, typeof other | undefined, 'online' | 'pos']> = [
      [d3, '08:00', undefined, 'online'],
      [d2, '09:00', other, 'pos'],
      [d2, '09:00', undefined, 'online'],
      [d3, '08:00', undefined, 'pos'],
      [d1, '15:00', undefined, 'online'],
      [d2, '09:00', other, 'online'],
      [d2, '09:00', undefined, 'pos'],
      [d2, '09:00', other, 'online'],
      [d1, '15:00', undefined, 'pos'],
      [d3, '08:00', undefined, 'online'],
      [d2, '09:00', undefined, 'online'],
    ];
    for (const [i, [date, time, activity, channel]] of plan.entries()) {
      const booking = await book(db.pool, owner, { date, time }, { activity, channel, firstName: `Guest${i}` });
      made.push({ reference: booking.Reference, startsAt: Date.parse(`${date}T${time}:00Z`), order: i });
    }
    expected = made.sort((a, b) => a.startsAt - b.startsAt || a.order - b.order).map((m) => m.reference);
  });

  async function allPages(client: Awaited<ReturnType<typeof signedIn>>, query: string, limit: number) {
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const answer: { status: number; body: { Bookings: Listed[]; Next: string | null } } = await client.send(
        'GET',
        `/api/v2/operator/bookings?Sort=starts_at&Limit=${limit}${query}${cursor ? `&Cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      pages.push(answer.body.Bookings.map((b) => b.Reference));
      cursor = answer.body.Next;
    } while (cursor);
    return pages;
  }

  it('orders by the timeslot start, then by booking, and pages through ties without a missed or repeated row', async () => {
    const client = await signedIn(server.url, owner.staff.email);
    for (const limit of [1, 2, 3, 4, 50]) {
      const pages = await allPages(client, '', limit);
      expect(pages.flat(), `Limit=${limit}`).toEqual(expected);
      expect(pages.every((p) => p.length > 0)).toBe(true);
    }
    const first = await client.send('GET', '/api/v2/operator/bookings?Sort=starts_at&Limit=50');
    const starts = first.body.Bookings.map((b: Listed) => Date.parse(b.StartsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('newest first, answers a range of every possible date as the open list, and nothing outside the booked dates', async () => {
    const client = await signedIn(server.url, owner.staff.email);
    const newest = async (query: string) => {
      const answer = await client.send('GET', `/api/v2/operator/bookings?Limit=50${query}`);
      expect(answer.status, answer.text).toBe(200);
      return (answer.body.Bookings as Listed[]).map((b) => b.Reference);
    };
    const open = await newest('');
    expect(open).toHaveLength(expected.length);
    // Each day of a range is read on its own; the range is cut to the account's first and last booked dates, where
    // 0001-01-01 to 9999-12-31 had been 3.6 million days to walk (15 s).
    expect(await newest('&From=0001-01-01&To=9999-12-31')).toEqual(open);
    expect(await newest('&To=9999-12-31')).toEqual(open);
    expect(await newest('&From=0001-01-01&Q=guest')).toEqual(open);
    expect(await newest(`&From=${dayFromNow(9)}&To=9999-12-31`)).toEqual([]);
    expect(await newest(`&From=0001-01-01&To=${dayFromNow(5)}`)).toEqual([]);
    const empty = await signedIn(server.url, (await createOperator(db.pool)).staff.email);
    expect((await empty.send('GET', '/api/v2/operator/bookings?From=0001-01-01&To=9999-12-31')).body.Bookings).toEqual([]);
  });

  it('keeps every filter', async () => {
    const client = await signedIn(server.url, owner.staff.email);
    const all = (await client.send('GET', '/api/v2/operator/bookings?Sort=starts_at&Limit=50')).body.Bookings as Listed[];
    const pos = all.filter((b) => b.Channel === 'pos').map((b) => b.Reference);
    expect((await allPages(client, '&Channel=pos', 2)).flat()).toEqual(pos);
    const d2Only = all.filter((b) => b.StartsAt.startsWith(d2)).map((b) => b.Reference);
    expect((await allPages(client, `&From=${d2}&To=${d2}`, 2)).flat()).toEqual(d2Only);
    expect((await allPages(client, `&From=${d2}&To=${d2}&ActivityID=${owner.activity.activityId}`, 1)).flat()).toEqual(
      all.filter((b) => b.StartsAt.startsWith(d2) && /^Guest(2|6|10)$/.test(b.Customer.FirstName)).map((b) => b.Reference),
    );
    expect((await allPages(client, '&Q=GUEST1', 1)).flat()).toEqual(all.filter((b) => b.Customer.FirstName.startsWith('Guest1')).map((b) => b.Reference));
  });

  it("refuses a cursor of the other order, an unknown Sort and a forged cursor with 422, and shows no other account's bookings", async () => {
    const client = await signedIn(server.url, owner.staff.email);
    const byId = await client.send('GET', '/api/v2/operator/bookings?Limit=2');
    const bySlot = await client.send('GET', '/api/v2/operator/bookings?Sort=starts_at&Limit=2');
    const mixed: Array<[string, string]> = [
      [`?Sort=starts_at&Cursor=${byId.body.Next}`, 'is a cursor of the default order: send it without Sort.'],
      [`?Cursor=${bySlot.body.Next}`, 'is a cursor of Sort=starts_at: send it with that Sort.'],
    ];
    for (const [query, detail] of mixed) {
      const answer = await client.send('GET', `/api/v2/operator/bookings${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body).toMatchObject({
        type: `${PROBLEM_BASE}/validation`,
        errors: [{ field: 'Cursor', message: expect.stringContaining(detail) }],
      });
    }
    const forged = (text: string) => Buffer.from(text).toString('base64url');
    for (const query of [
      '?Sort=created_at',
      '?Sort=-starts_at',
      '?Sort=',
      '?Sort=starts_at&Sort=starts_at',
      `?Sort=starts_at&Cursor=${forged('s1.0')}`,
      `?Sort=starts_at&Cursor=${forged('s12345678901234567.1')}`,
      `?Sort=starts_at&Cursor=${forged('sx.1')}`,
    ]) {
      const answer = await client.send('GET', `/api/v2/operator/bookings${query}`);
      expect(answer.status, query).toBe(422);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/validation`);
    }
    // A forged id past bigint (19 digits) was a 500 (PostgreSQL refused it as an id); it is a position past every id.
    for (const query of [`?Cursor=${forged('k9999999999999999999')}`, `?Sort=starts_at&Cursor=${forged('s1.9999999999999999999')}`]) {
      const answer = await client.send('GET', `/api/v2/operator/bookings${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 200 });
    }
    const stranger = await createOperator(db.pool);
    await createSlot(db.pool, stranger, d1, '07:00');
    await book(db.pool, stranger, { date: d1, time: '07:00' }, { firstName: 'Stranger' });
    expect((await allPages(client, '', 50)).flat()).toEqual(expected);
  });
});

describe("clearing a customer's phone", () => {
  it('takes Phone null from the Edit, shows it cleared everywhere, and refuses an empty string', async () => {
    const owner = await createOperator(db.pool);
    const date = dayFromNow(9);
    await createSlot(db.pool, owner, date, '11:00');
    const { Reference } = await book(db.pool, owner, { date, time: '11:00' });
    const client = await signedIn(server.url, owner.staff.email);
    const path = `/api/v2/operator/bookings/${Reference}`;
    expect((await client.send('PATCH', path, { Customer: { Phone: '+351 912 345 678' } })).body.Customer.Phone).toBe('+351 912 345 678');
    const cleared = await client.send('PATCH', path, { Customer: { Phone: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.Customer).toEqual({ FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: null });
    expect((await client.send('GET', path)).body.Customer.Phone).toBeNull();
    const history = await client.send('GET', `${path}/history`);
    expect(JSON.stringify(history.body)).toContain('+351 912 345 678');
    const empty = await client.send('PATCH', path, { Customer: { Phone: '' } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].field).toBe('Customer.Phone');
    // Nothing to clear: the same answer, nothing changed.
    expect((await client.send('PATCH', path, { Customer: { Phone: null } })).body.Customer.Phone).toBeNull();
  });
});
