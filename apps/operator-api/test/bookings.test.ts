// The console's bookings: every channel in one list, each filter, keyset paging that neither misses nor repeats a row
// while bookings are written, one booking with its answers, the CSV export equal to the list, and the tenant wall.
import { describe, expect, it, beforeAll } from 'vitest';
import { request } from '@backbone/testkit';
import { createTestActivity, createTestQuestion } from '@backbone/testkit';
import { createApiKey, streamOperatorBookingsCsv } from '@backbone/db';
import { createBooking } from '@backbone/use-cases';
import { encodeCursor } from '../src/cursor.js';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
const d1 = dayFromNow(3);
const d2 = dayFromNow(10);

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  await createSlot(db.pool, operator, d1, '10:00');
  await createSlot(db.pool, operator, d2, '14:00');
  await createSlot(db.pool, other, d1, '10:00');
  await book(
    db.pool,
    operator,
    { date: d1, time: '10:00' },
    { channel: 'ota', firstName: 'Olga', lastName: 'Tokarczuk', email: 'olga@example.com', paymentReference: 'PAY-OTA-1' },
  );
  await book(db.pool, operator, { date: d1, time: '10:00' }, { channel: 'online', firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com' });
  await book(
    db.pool,
    operator,
    { date: d2, time: '14:00' },
    { channel: 'pos', firstName: 'Bo', lastName: 'Lind', email: 'bo@shop.example', paymentReference: '=HYPERLINK("x")' },
  );
  await book(db.pool, other, { date: d1, time: '10:00' }, { channel: 'ota', firstName: 'Other', lastName: 'Account', paymentReference: 'PAY-OTHER' });
});

async function list(query: string) {
  const client = await signedIn(server.url, operator.staff.email);
  return client.send('GET', `/api/v2/operator/bookings${query}`);
}

describe('bookings list', () => {
  it('shows every channel of the account, newest first, and nothing of another account', async () => {
    const answer = await list('');
    expect(answer.status).toBe(200);
    expect(answer.body.Next).toBeNull();
    expect(answer.body.Bookings.map((b: { Channel: string }) => b.Channel)).toEqual(['pos', 'online', 'ota']);
    expect(answer.body.Bookings[2]).toMatchObject({
      Status: 'confirmed',
      ActivityID: operator.activity.activityId,
      ActivityName: operator.activity.name,
      Date: d1,
      Time: '10:00',
      Participants: 1,
      Customer: { FirstName: 'Olga', LastName: 'Tokarczuk', Email: 'olga@example.com', Phone: null },
      PaymentReference: 'PAY-OTA-1',
    });
    expect(answer.text).not.toContain('PAY-OTHER');
  });

  it.each([
    ['?Channel=ota', ['Olga']],
    ['?Channel=pos', ['Bo']],
    ['?Status=confirmed', ['Bo', 'Ana', 'Olga']],
    ['?Status=cancelled', []],
    [`?From=${d2}`, ['Bo']],
    [`?To=${d1}`, ['Ana', 'Olga']],
    [`?From=${d1}&To=${d1}&Channel=online`, ['Ana']],
    ['?Q=tokarc', ['Olga']],
    ['?Q=ANA%40EXAMPLE', ['Ana']],
    ['?Q=ana%20silva', ['Ana']],
    ['?Q=pay-ota', ['Olga']],
    ['?Q=%25', []],
    ['?Q=_', []],
  ])('filters %s', async (query, names) => {
    const answer = await list(query);
    expect(answer.status).toBe(200);
    expect(answer.body.Bookings.map((b: { Customer: { FirstName: string } }) => b.Customer.FirstName)).toEqual(names);
  });

  it('filters by activity and by reference', async () => {
    const activity = await createTestActivity(db.pool, operator.account.id, { timeZone: 'Europe/Lisbon', name: 'Sunset paddle' });
    await createSlot(db.pool, operator, d1, '18:00', 10, activity);
    const sunset = await book(db.pool, operator, { date: d1, time: '18:00' }, { activity, firstName: 'Sol' });
    const byActivity = await list(`?ActivityID=${activity.activityId}`);
    expect(byActivity.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([sunset.Reference]);
    const byReference = await list(`?Q=${sunset.Reference.slice(2, 7)}`);
    expect(byReference.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([sunset.Reference]);
  });

  it('answers 304 to a poll while the page is unchanged, and 200 once a booking arrives', async () => {
    const client = await signedIn(server.url, operator.staff.email);
    const first = await client.send('GET', '/api/v2/operator/bookings?Channel=online');
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect((await client.send('GET', '/api/v2/operator/bookings?Channel=online', undefined, { 'if-none-match': etag })).status).toBe(304);
    await book(db.pool, operator, { date: d1, time: '10:00' }, { channel: 'online', firstName: 'Newcomer' });
    const changed = await client.send('GET', '/api/v2/operator/bookings?Channel=online', undefined, { 'if-none-match': etag });
    expect(changed.status).toBe(200);
    expect(changed.body.Bookings[0].Customer.FirstName).toBe('Newcomer');
  });

  it('refuses invalid filters and cursors with 422', async () => {
    for (const query of ['?Channel=fax', '?From=2026-13-01', '?Limit=0', '?Limit=201', '?ActivityID=nope', '?Cursor=abc', '?Unknown=1']) {
      const answer = await list(query);
      expect(answer.status, query).toBe(422);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/validation`);
    }
  });

  it('pages by keyset without a missed or repeated row while bookings are written', async () => {
    const owner = await createOperator(db.pool);
    const date = dayFromNow(5);
    await createSlot(db.pool, owner, date, '09:00', 1000);
    const before: string[] = [];
    for (let i = 0; i < 45; i++) before.push((await book(db.pool, owner, { date, time: '09:00' }, { firstName: `P${i}` })).Reference);
    const client = await signedIn(server.url, owner.owner.email);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const answer: { status: number; body: { Bookings: { Reference: string }[]; Next: string | null } } = await client.send(
        'GET',
        `/api/v2/operator/bookings?Limit=10${cursor ? `&Cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      seen.push(...answer.body.Bookings.map((b: { Reference: string }) => b.Reference));
      cursor = answer.body.Next;
      pages++;
      // New bookings arrive between every page.
      await Promise.all([0, 1, 2].map((i) => book(db.pool, owner, { date, time: '09:00' }, { firstName: `N${pages}-${i}` })));
    } while (cursor);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...before].reverse());
  });

  it('pages a date range newest first across its dates, without a missed or repeated row, whatever dates the bookings are for', async () => {
    const owner = await createOperator(db.pool);
    const dates = [4, 5, 6, 7, 9].map(dayFromNow);
    for (const date of dates) await createSlot(db.pool, owner, date, '09:00', 1000);
    // Bookings made in turn for dates in and out of the range, some online and some at the point of sale.
    const inRange: string[] = [];
    for (let i = 0; i < 40; i++) {
      const date = dates[(i * 3) % dates.length]!;
      const channel = i % 4 === 0 ? 'pos' : 'online';
      const reference = (await book(db.pool, owner, { date, time: '09:00' }, { firstName: `D${i}`, channel })).Reference;
      if (date >= dates[1]! && date <= dates[3]! && channel === 'online') inRange.push(reference);
    }
    const client = await signedIn(server.url, owner.owner.email);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: { status: number; body: { Bookings: { Reference: string; Date: string }[]; Next: string | null } } = await client.send(
        'GET',
        `/api/v2/operator/bookings?From=${dates[1]}&To=${dates[3]}&Channel=online&Limit=4${cursor ? `&Cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      seen.push(...answer.body.Bookings.map((b) => b.Reference));
      cursor = answer.body.Next;
    } while (cursor);
    expect(seen).toEqual([...inRange].reverse());
    const open = await client.send('GET', `/api/v2/operator/bookings?From=${dates[4]}&Limit=200`);
    expect(open.body.Bookings.map((b: { Date: string }) => b.Date)).toEqual(Array.from({ length: 8 }, () => dates[4]));
  });

  it("answers one booking with its answers; another account's booking is a 404", async () => {
    const question = await createTestQuestion(db.pool, operator.activity, { question: 'Can you swim?', type: 'checkbox' });
    const { value } = await createBooking(
      { pool: db.pool },
      {
        accountId: operator.account.id,
        apiKeyId: null,
        partnerId: null,
        hold: null,
        channel: 'online',
        activityId: operator.activity.activityId,
        date: d1,
        time: '10:00',
        participants: 2,
        customer: { FirstName: 'Grace', LastName: 'Hopper', Email: 'grace@example.com', Phone: '+1 555 0100' },
        paymentReference: null,
        answers: [{ QuestionID: question.id, Value: true }],
      },
    );
    const client = await signedIn(server.url, operator.staff.email);
    const answer = await client.send('GET', `/api/v2/operator/bookings/${value.Reference}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      Reference: value.Reference,
      Participants: 2,
      Customer: { Phone: '+1 555 0100' },
      Answers: [{ QuestionID: question.id, Question: 'Can you swim?', Type: 'checkbox', Participant: null, Value: true }],
    });
    const theirs = (await signedIn(server.url, other.owner.email)).send('GET', `/api/v2/operator/bookings/${value.Reference}`);
    expect((await theirs).status).toBe(404);
    expect((await client.send('GET', '/api/v2/operator/bookings/ZZZZ-ZZZZ')).status).toBe(404);
    expect((await client.send('GET', '/api/v2/operator/bookings/lower-case')).status).toBe(400);
  });
});

describe('free-text search over more bookings than its walk', () => {
  // 6,000 bookings in id order: a frequent term ("Walker", every tenth of the newest thousand) fills its pages from
  // the walk down the newest ids; the same term's ten oldest matches and a rare address lie more than the walk's 4,000
  // ids below the top, where only the trigram index finds them.
  let owner: Operator;
  let date: string;
  /** The term's matches, newest first, with their ids. */
  let walkers: Array<{ id: string; reference: string }>;
  beforeAll(async () => {
    owner = await createOperator(db.pool);
    date = dayFromNow(12);
    await createSlot(db.pool, owner, date, '09:00', 10000);
    const { rows } = await db.pool.query<{ id: string; reference: string; first_name: string }>(
      `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer)
       SELECT $1, 'S' || lpad(g::text, 7, '0'), a.id, t.id, 'online', 1,
              jsonb_build_object('FirstName', CASE WHEN (g > 5000 AND g % 10 = 0) OR (g <= 1000 AND g % 100 = 0) THEN 'Walker' ELSE 'Pat' END,
                                 'LastName', 'Doe', 'Email', CASE WHEN g = 10 THEN 'rare.one@example.org' ELSE 'pat' || g || '@example.com' END)
         FROM generate_series(1, 6000) g, activities a JOIN timeslots t ON t.activity_id = a.id
        WHERE a.account_id = $1
        ORDER BY g
       RETURNING id, reference, customer->>'FirstName' AS first_name`,
      [owner.account.id],
    );
    walkers = rows.filter((r) => r.first_name === 'Walker').sort((a, b) => Number(b.id) - Number(a.id));
  });

  it('pages a frequent term from the walk into the index and to its end, without a missed or repeated row while bookings are written', async () => {
    const client = await signedIn(server.url, owner.owner.email);
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const answer: { status: number; body: { Bookings: { Reference: string }[]; Next: string | null } } = await client.send(
        'GET',
        `/api/v2/operator/bookings?Q=walker&Limit=40${cursor ? `&Cursor=${cursor}` : ''}`,
      );
      expect(answer.status).toBe(200);
      pages.push(answer.body.Bookings.map((b) => b.Reference));
      cursor = answer.body.Next;
      await book(db.pool, owner, { date, time: '09:00' }, { firstName: 'Walker' });
    } while (cursor);
    // Two pages from the walk; the last one holds the walk's last 20 and the index's 10.
    expect(walkers).toHaveLength(110);
    expect(pages.map((p) => p.length)).toEqual([40, 40, 30]);
    expect(pages.flat()).toEqual(walkers.map((w) => w.reference));
  });

  it('finds a rare term only the index reaches, with every other filter', async () => {
    const client = await signedIn(server.url, owner.owner.email);
    const rare = await client.send('GET', '/api/v2/operator/bookings?Q=RARE.ONE%40example');
    expect(rare.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual(['S0000010']);
    expect(rare.body.Next).toBeNull();
    expect((await client.send('GET', '/api/v2/operator/bookings?Q=rare.one&Channel=pos')).body.Bookings).toEqual([]);
    const dated = await client.send('GET', `/api/v2/operator/bookings?Q=rare.one&From=${date}&To=${date}`);
    expect(dated.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual(['S0000010']);
    expect((await client.send('GET', `/api/v2/operator/bookings?Q=rare.one&From=${dayFromNow(13)}`)).body.Bookings).toEqual([]);
    const last = await client.send('GET', `/api/v2/operator/bookings?Q=walker&From=${date}&To=${date}&Limit=5&Cursor=${encodeCursor(walkers[104]!.id)}`);
    expect(last.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual(walkers.slice(105).map((w) => w.reference));
    expect(last.body.Next).toBeNull();
  });
});

describe('partners and holds', () => {
  it('shows a hold made without a customer as it is: no names yet, in the list, the panel and the manifest, each answer within its schema', async () => {
    const owner = await createOperator(db.pool);
    const date = dayFromNow(9);
    await createSlot(db.pool, owner, date, '11:00', 10);
    const key = await createApiKey(db.pool, owner.account.id, { name: 'Holdr', scopes: ['ota'] });
    const held = (
      await createBooking(
        { pool: db.pool },
        {
          accountId: owner.account.id,
          apiKeyId: key.id,
          partnerId: key.partnerId,
          hold: { minutes: 5 },
          channel: 'ota',
          activityId: owner.activity.activityId,
          date,
          time: '11:00',
          participants: 2,
          customer: {},
          paymentReference: null,
          answers: undefined,
        },
      )
    ).value;
    const client = await signedIn(server.url, owner.owner.email);
    const listed = (await client.send('GET', '/api/v2/operator/bookings')).body.Bookings;
    expect(listed).toEqual([expect.objectContaining({ Reference: held.Reference, Status: 'on_hold', Customer: { Phone: null } })]);
    expect((await client.send('GET', `/api/v2/operator/bookings/${held.Reference}`)).body).toEqual(
      expect.objectContaining({ Reference: held.Reference, Customer: { Phone: null } }),
    );
    const manifest = (await client.send('GET', `/api/v2/operator/manifest?Date=${date}`)).body;
    expect(manifest.Timeslots[0].Bookings).toEqual([expect.objectContaining({ Reference: held.Reference, Customer: { Phone: null } })]);
  });

  it('names the partner of an ota booking and counts a lapsed hold as expired', async () => {
    const owner = await createOperator(db.pool);
    const date = dayFromNow(8);
    await createSlot(db.pool, owner, date, '11:00', 10);
    const key = await createApiKey(db.pool, owner.account.id, { name: 'GetYourKayak', scopes: ['ota'] });
    const made = (hold: boolean) =>
      createBooking(
        { pool: db.pool },
        {
          accountId: owner.account.id,
          apiKeyId: key.id,
          partnerId: key.partnerId,
          hold: hold ? { minutes: 5 } : null,
          channel: 'ota',
          activityId: owner.activity.activityId,
          date,
          time: '11:00',
          participants: 1,
          customer: { FirstName: 'Pat', LastName: 'Ner', Email: 'pat@example.com' },
          paymentReference: 'GYK-1',
          answers: undefined,
        },
      );
    const confirmed = (await made(false)).value;
    const held = (await made(true)).value;
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [held.Reference]);
    const client = await signedIn(server.url, owner.owner.email);
    const all = (await client.send('GET', '/api/v2/operator/bookings')).body.Bookings;
    expect(all).toEqual([
      expect.objectContaining({ Reference: held.Reference, Status: 'expired', PartnerName: 'GetYourKayak' }),
      expect.objectContaining({ Reference: confirmed.Reference, Status: 'confirmed', PartnerName: 'GetYourKayak', PaymentReference: 'GYK-1' }),
    ]);
    expect((await client.send('GET', '/api/v2/operator/bookings?Status=expired')).body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([
      held.Reference,
    ]);
    expect((await client.send('GET', '/api/v2/operator/bookings?Status=on_hold')).body.Bookings).toEqual([]);
    const csv = (await client.send('GET', '/api/v2/operator/bookings.csv')).text.split('\r\n');
    expect(csv[1]).toContain(',expired,ota,GetYourKayak,');
  });
});

describe('CSV export', () => {
  it('streams the same rows as the list, with the same filters, quoted and formula-safe', async () => {
    const client = await signedIn(server.url, operator.staff.email);
    for (const query of ['', '?Channel=pos', `?To=${d1}`, '?Q=nobody']) {
      const csv = await client.send('GET', `/api/v2/operator/bookings.csv${query}`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      const lines = csv.text.split('\r\n');
      expect(lines[0]).toBe(
        'Reference,Status,Channel,Partner,Activity,Date,Time,Participants,FirstName,LastName,Email,Phone,PaymentReference,CreatedAt,UnitPriceMinor,Currency,TotalMinor,Answers,CancellationReason,Total,Note,BookedAt,CheckedInAt',
      );
      expect(lines.at(-1)).toBe('');
      const rows = lines.slice(1, -1);
      const listed = (await client.send('GET', `/api/v2/operator/bookings${query}${query ? '&' : '?'}Limit=200`)).body.Bookings;
      expect(rows.map((r) => r.split(',')[0])).toEqual(listed.map((b: { Reference: string }) => b.Reference));
    }
    const pos = (await client.send('GET', '/api/v2/operator/bookings.csv?Channel=pos')).text.split('\r\n')[1]!;
    expect(pos).toContain(`,"'=HYPERLINK(""x"")",`);
  });

  it('writes hostile cells as RFC 4180 fields, formula-safe, exactly as the list holds them', async () => {
    const owner = await createOperator(db.pool);
    const activity = await createTestActivity(db.pool, owner.account.id, { timeZone: 'Europe/Lisbon', name: 'Kayak, "wild" — Ærø' });
    const date = dayFromNow(7);
    await createSlot(db.pool, owner, date, '09:30', 10, activity);
    const key = await createApiKey(db.pool, owner.account.id, { name: '@Partner,=1', scopes: ['ota'] });
    const hostile = [
      { FirstName: '=HYPERLINK("x")', LastName: '+1+1', Email: '-2@example.com', Phone: '@SUM(A1)' },
      { FirstName: '\tTab', LastName: '\rReturn', Email: 'line\r\nbreak, "quoted"', Phone: '' },
      { FirstName: 'Zoë 🚣', LastName: 'Ünïcödé 東京', Email: 'plain@example.com', Phone: '+49 170 1234567' },
    ];
    for (const [i, customer] of hostile.entries()) {
      await db.pool.query(
        `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer, payment_reference, partner_id, created_at)
         SELECT $1, $2, a.id, t.id, 'ota', 2, $3::jsonb, $4, $5, '2026-01-02T03:04:05.678999Z'
           FROM activities a JOIN timeslots t ON t.activity_id = a.id WHERE a.account_id = $1 AND a.activity_id = $6`,
        [owner.account.id, `HOST-ILE${i}`, JSON.stringify(customer), i === 2 ? null : `-PAY,${i}`, key.partnerId, activity.activityId],
      );
    }
    const client = await signedIn(server.url, owner.owner.email);
    const csv = (await client.send('GET', '/api/v2/operator/bookings.csv')).text;
    const common = `confirmed,ota,"'@Partner,=1","Kayak, ""wild"" — Ærø",${date},09:30,2`;
    // The activity's price per participant, its currency, the party's total; no answers, no cancellation reason; the
    // total in euros, no note, booked at 03:04 in Lisbon (UTC's clock in January), not checked in.
    const price = '4500,EUR,9000,,,90.00,,2026-01-02 03:04,';
    expect(csv).toBe(
      'Reference,Status,Channel,Partner,Activity,Date,Time,Participants,FirstName,LastName,Email,Phone,PaymentReference,CreatedAt,UnitPriceMinor,Currency,TotalMinor,Answers,CancellationReason,Total,Note,BookedAt,CheckedInAt\r\n' +
        `HOST-ILE2,${common},Zoë 🚣,Ünïcödé 東京,plain@example.com,+49 170 1234567,,2026-01-02T03:04:05.678Z,${price}\r\n` +
        `HOST-ILE1,${common},'\tTab,"'\rReturn","line\r\nbreak, ""quoted""",,"'-PAY,1",2026-01-02T03:04:05.678Z,${price}\r\n` +
        `HOST-ILE0,${common},"'=HYPERLINK(""x"")",'+1+1,'-2@example.com,'@SUM(A1),"'-PAY,0",2026-01-02T03:04:05.678Z,${price}\r\n`,
    );
    // The same cells as the list answers them (CreatedAt as its ISO text, every other text before quoting).
    const listed = (await client.send('GET', '/api/v2/operator/bookings')).body.Bookings;
    expect(listed.map((b: { Reference: string; CreatedAt: string; Customer: object }) => [b.Reference, b.CreatedAt, b.Customer])).toEqual(
      [2, 1, 0].map((i) => [`HOST-ILE${i}`, '2026-01-02T03:04:05.678Z', { Phone: null, ...hostile[i] }]),
    );
  });

  it('exports more rows than one batch', async () => {
    const owner = await createOperator(db.pool);
    const date = dayFromNow(6);
    await createSlot(db.pool, owner, date, '09:00', 3000);
    await db.pool.query(
      `INSERT INTO bookings (account_id, reference, activity_id, timeslot_id, channel, participants, customer)
       SELECT $1, 'R' || lpad(g::text, 7, '0'), a.id, t.id, 'online', 1, '{"FirstName":"F","LastName":"L","Email":"e@example.com"}'::jsonb
         FROM generate_series(1, 2500) g, activities a JOIN timeslots t ON t.activity_id = a.id
        WHERE a.account_id = $1`,
      [owner.account.id],
    );
    const client = await signedIn(server.url, owner.owner.email);
    const csv = await client.send('GET', '/api/v2/operator/bookings.csv');
    const rows = csv.text.split('\r\n').slice(1, -1);
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((r) => r.split(',')[0])).size).toBe(2500);
    // A date range takes another path (windows of ids): the same rows in the same order.
    const dated = await client.send('GET', `/api/v2/operator/bookings.csv?From=${date}&To=${date}`);
    expect(dated.text.split('\r\n').slice(1, -1)).toEqual(rows);
    // In batches of 300 (windows of 1,500 ids with the range, two of them asked for ahead): the same text.
    for (const filters of [{}, { From: date, To: date }]) {
      let text = '';
      for await (const batch of streamOperatorBookingsCsv(db.pool, owner.account.id, filters, 300)) text += batch;
      expect(text.split('\r\n').slice(0, -1)).toEqual(rows);
    }
  });

  it('needs a session or an admin key', async () => {
    expect((await request(server.url, 'GET', '/api/v2/operator/bookings.csv')).status).toBe(401);
    expect((await request(server.url, 'GET', '/api/v2/operator/bookings.csv', { key: operator.key })).status).toBe(200);
  });
});

describe('CSV export for spreadsheets', () => {
  it('starts with a UTF-8 byte order mark, names the range in the file name, and carries answers (files by name), the cancellation reason, the total in major units, the note and local times', async () => {
    const raw = await fetch(`${server.url}/api/v2/operator/bookings.csv?From=${d1}&To=${d2}`, { headers: { authorization: `Bearer ${operator.key}` } });
    const bytes = new Uint8Array(await raw.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(raw.headers.get('content-disposition')).toBe(`attachment; filename="bookings-${d1}-to-${d2}.csv"`);
    const open = await request(server.url, 'GET', `/api/v2/operator/bookings.csv?From=${d1}`, { key: operator.key });
    expect(open.headers.get('content-disposition')).toBe(`attachment; filename="bookings-from-${d1}.csv"`);

    const owner = await createOperator(db.pool);
    const date = dayFromNow(8);
    await createSlot(db.pool, owner, date, '09:00', 10);
    const { Reference } = await book(db.pool, owner, { date, time: '09:00' }, { participants: 2 });
    await db.pool.query(`UPDATE bookings SET answers = $2 WHERE reference = $1`, [
      Reference,
      JSON.stringify([
        { QuestionID: 1, Question: 'Allergies?', Type: 'text', Participant: null, Value: 'Nuts' },
        { QuestionID: 2, Question: 'Size', Type: 'multiselect', Participant: 1, Value: ['M', 'L'] },
        {
          QuestionID: 3,
          Question: 'Licence',
          Type: 'file',
          Participant: null,
          Value: '7b0c9d3e-1f2a-4b5c-8d6e-9f0a1b2c3d4e',
          File: { FileID: '7b0c9d3e-1f2a-4b5c-8d6e-9f0a1b2c3d4e', Name: 'Licence Ana.pdf', ContentType: 'application/pdf', Size: 1000 },
        },
      ]),
    ]);
    await db.pool.query(
      `UPDATE bookings SET note = 'Arrives by ferry', created_at = '2026-07-01T08:15:00Z', checked_in_at = '2026-07-02T09:05:00Z' WHERE reference = $1`,
      [Reference],
    );
    await request(server.url, 'POST', `/api/v2/operator/bookings/${Reference}/cancel`, { key: owner.key, body: { Reason: 'Storm, sorry' } });
    const line = (await request(server.url, 'GET', '/api/v2/operator/bookings.csv', { key: owner.key })).text.split('\r\n')[1]!;
    // Amounts in euros too, the note, and the times in Lisbon's summer clock (UTC+1); a file answer by its name.
    expect(
      line.endsWith(
        `,4500,EUR,9000,"Allergies?: Nuts; Size #1: M, L; Licence: Licence Ana.pdf","Storm, sorry",90.00,Arrives by ferry,2026-07-01 09:15,2026-07-02 10:05`,
      ),
    ).toBe(true);
  });
});
