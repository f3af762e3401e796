// The sales report through HTTP: confirmed bookings of the range per currency by channel, partner and activity,
// cancelled ones apart, holds and other dates and accounts left out; the range's bad input; the sums the report reads
// (booking_sales_rollup, kept by triggers) equal to the bookings' own through every kind of change, races included;
// and the fold of past days into booking_sales_daily, which changes no report, whenever it runs.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity } from '@backbone/testkit';
import { createApiKey, foldBookingSales } from '@backbone/db';
import { createBooking } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let other: Operator;
let staff: SessionClient;
const d1 = dayFromNow(2);
const d2 = dayFromNow(3);
const outside = dayFromNow(40);
let partnerId: string;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  const usd = await createTestActivity(db.pool, operator.account.id, { timeZone: 'Europe/Lisbon', name: 'Boat (USD)', priceMinor: 10000, currency: 'USD' });
  for (const date of [d1, d2, outside]) await createSlot(db.pool, operator, date, '10:00', 50);
  await createSlot(db.pool, operator, d1, '10:00', 50, usd);
  await createSlot(db.pool, other, d1, '10:00', 50);
  const key = await createApiKey(db.pool, operator.account.id, { name: 'Klook', scopes: ['ota'] });
  partnerId = key.partnerId!;
  await createBooking(
    { pool: db.pool },
    {
      accountId: operator.account.id,
      apiKeyId: key.id,
      partnerId,
      hold: null,
      channel: 'ota',
      activityId: operator.activity.activityId,
      date: d1,
      time: '10:00',
      participants: 3,
      customer: { FirstName: 'Kim', LastName: 'Lee', Email: 'kim@example.com' },
      paymentReference: null,
      answers: undefined,
    },
  );
  await book(db.pool, operator, { date: d2, time: '10:00' }, { channel: 'pos', participants: 2 });
  await book(db.pool, operator, { date: d1, time: '10:00' }, { channel: 'online', participants: 1, activity: usd });
  const gone = await book(db.pool, operator, { date: d2, time: '10:00' }, { channel: 'online', participants: 4 });
  await staff.send('POST', `/api/v2/operator/bookings/${gone.Reference}/cancel`);
  const held = await book(db.pool, operator, { date: d2, time: '10:00' }, { participants: 5 });
  await db.pool.query(`UPDATE bookings SET status = 'on_hold', expires_at = now() + interval '1 hour' WHERE reference = $1`, [held.Reference]);
  await book(db.pool, operator, { date: outside, time: '10:00' }, { participants: 7 });
  await book(db.pool, other, { date: d1, time: '10:00' }, { participants: 9 });
});

describe('the sales report', () => {
  it('sums confirmed bookings per currency by channel, partner and activity, and cancelled ones apart', async () => {
    const answer = await staff.send('GET', `/api/v2/operator/reports/sales?From=${d1}&To=${d2}`);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({
      From: d1,
      To: d2,
      By: 'takes_place',
      Currencies: [
        {
          Currency: 'EUR',
          Bookings: 2,
          Participants: 5,
          RevenueMinor: 5 * 4500,
          ByChannel: [
            { Channel: 'ota', Bookings: 1, Participants: 3, RevenueMinor: 13500 },
            { Channel: 'pos', Bookings: 1, Participants: 2, RevenueMinor: 9000 },
          ],
          ByPartner: [{ PartnerID: partnerId, PartnerName: 'Klook', Bookings: 1, Participants: 3, RevenueMinor: 13500 }],
          ByActivity: [{ ActivityID: operator.activity.activityId, ActivityName: operator.activity.name, Bookings: 2, Participants: 5, RevenueMinor: 22500 }],
          ByPaymentMethod: [],
          Cancelled: { Bookings: 1, Participants: 4, RevenueMinor: 18000 },
        },
        {
          Currency: 'USD',
          Bookings: 1,
          Participants: 1,
          RevenueMinor: 10000,
          ByChannel: [{ Channel: 'online', Bookings: 1, Participants: 1, RevenueMinor: 10000 }],
          ByPartner: [],
          ByActivity: [expect.objectContaining({ ActivityName: 'Boat (USD)', RevenueMinor: 10000 })],
          ByPaymentMethod: [],
          Cancelled: { Bookings: 0, Participants: 0, RevenueMinor: 0 },
        },
      ],
    });
  });

  it("reads the bookings made on the days asked (By=booked, in the account's zone), whatever their timeslot's date", async () => {
    const lisbonDay = (offsetDays: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + offsetDays * 86_400_000));
    const today = lisbonDay(0);
    const yesterday = lisbonDay(-1);
    const made = await book(db.pool, operator, { date: d2, time: '10:00' }, { channel: 'pos', participants: 6 });
    // Made at 23:30 yesterday, Lisbon time: yesterday's sale, though it is today in zones east of Lisbon.
    await db.pool.query(`UPDATE bookings SET created_at = ($2::date + time '23:30') AT TIME ZONE 'Europe/Lisbon' WHERE reference = $1`, [
      made.Reference,
      yesterday,
    ]);
    const sold = await staff.send('GET', `/api/v2/operator/reports/sales?From=${today}&To=${today}&By=booked`);
    expect(sold.status, sold.text).toBe(200);
    const eur = sold.body.Currencies.find((c: { Currency: string }) => c.Currency === 'EUR');
    // Every EUR sale of the set-up was made today: the ota and pos ones of the range and the one 40 days out; the
    // hold is no sale, the cancelled one is apart, another account's is not here.
    expect(sold.body.By).toBe('booked');
    expect(eur).toMatchObject({ Bookings: 3, Participants: 3 + 2 + 7, Cancelled: { Bookings: 1, Participants: 4, RevenueMinor: 18000 } });
    const before = await staff.send('GET', `/api/v2/operator/reports/sales?From=${yesterday}&To=${yesterday}&By=booked`);
    expect(before.body.Currencies).toEqual([expect.objectContaining({ Currency: 'EUR', Bookings: 1, Participants: 6, RevenueMinor: 6 * 4500 })]);
    expect((await staff.send('GET', `/api/v2/operator/reports/sales?From=${today}&To=${today}&By=sold`)).status).toBe(422);
  });

  it("cashes up the desk's sales of a day by how they were paid", async () => {
    const desk = await createOperator(db.pool);
    const cashier = await signedIn(server.url, desk.staff.email);
    const date = dayFromNow(4);
    await createSlot(db.pool, desk, date, '10:00', 50);
    const sell = async (participants: number, PaymentMethod?: string) => {
      const sold = await cashier.send('POST', '/api/v2/operator/sales', {
        ActivityID: desk.activity.activityId,
        Date: date,
        Time: '10:00',
        Participants: participants,
        Customer: { FirstName: 'Walk', LastName: 'In' },
        ...(PaymentMethod ? { PaymentMethod } : {}),
      });
      expect(sold.status, sold.text).toBe(201);
      return sold.body.Reference as string;
    };
    const cash = await sell(2, 'cash');
    await sell(1, 'cash');
    await sell(3, 'card');
    await sell(1);
    expect((await cashier.send('GET', `/api/v2/operator/bookings/${cash}`)).body.PaymentMethod).toBe('cash');
    expect(
      (
        await cashier.send('POST', '/api/v2/operator/sales', {
          ActivityID: desk.activity.activityId,
          Date: date,
          Time: '10:00',
          Participants: 1,
          Customer: { FirstName: 'A', LastName: 'B' },
          PaymentMethod: 'cheque',
        })
      ).status,
    ).toBe(422);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
    const report = await cashier.send('GET', `/api/v2/operator/reports/sales?From=${today}&To=${today}&By=booked`);
    expect(report.body.Currencies[0].ByPaymentMethod).toEqual([
      { PaymentMethod: 'card', Bookings: 1, Participants: 3, RevenueMinor: 3 * 4500 },
      { PaymentMethod: 'cash', Bookings: 2, Participants: 3, RevenueMinor: 3 * 4500 },
    ]);
    expect(report.body.Currencies[0].Bookings).toBe(4);
  });

  it('is empty for a range without bookings', async () => {
    const answer = await staff.send('GET', `/api/v2/operator/reports/sales?From=${dayFromNow(100)}&To=${dayFromNow(101)}`);
    expect(answer.body.Currencies).toEqual([]);
  });

  it.each([['?From=2026-01-01'], ['?To=2026-01-01'], ['?From=2026-01-02&To=2026-01-01'], ['?From=2026-01-01&To=2027-01-02'], ['?From=x&To=2026-01-01']])(
    'refuses %s (422)',
    async (query) => {
      const answer = await staff.send('GET', `/api/v2/operator/reports/sales${query}`);
      expect(answer.status, answer.text).toBe(422);
    },
  );
});

describe('the sums the report reads', () => {
  /** The sums counted from the bookings themselves, as the report once read them; beside the trigger-kept ones. */
  async function sums(accountId: string) {
    const counted = await db.pool.query(
      `SELECT timeslot_id::text, channel, partner_id, currency, status = 'cancelled' AS cancelled,
              count(*)::int AS bookings, sum(participants)::int AS participants, sum(total_minor)::bigint::text AS revenue
         FROM bookings WHERE account_id = $1 AND status IN ('confirmed', 'cancelled')
        GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`,
      [accountId],
    );
    const kept = await db.pool.query(
      `SELECT timeslot_id::text, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor::text AS revenue
         FROM booking_sales_rollup WHERE account_id = $1 AND bookings <> 0 ORDER BY 1, 2, 3, 4, 5`,
      [accountId],
    );
    return { counted: counted.rows, kept: kept.rows };
  }

  it('equal the bookings through reschedules, party changes, cancels, holds confirmed and expired, and races', async () => {
    const mover = await createOperator(db.pool);
    const owner = await signedIn(server.url, mover.staff.email);
    const days = [dayFromNow(5), dayFromNow(6), dayFromNow(7)];
    for (const day of days) {
      await createSlot(db.pool, mover, day, '10:00', 12);
      await createSlot(db.pool, mover, day, '14:00', 12);
    }
    const channels = ['online', 'pos', 'ota'] as const;
    const made = [];
    for (let i = 0; i < 12; i++) {
      made.push(await book(db.pool, mover, { date: days[i % 3]!, time: i % 2 ? '14:00' : '10:00' }, { channel: channels[i % 3], participants: 1 + (i % 3) }));
    }
    const send = (method: string, ref: string, suffix: string, body?: unknown) => owner.send(method, `/api/v2/operator/bookings/${ref}${suffix}`, body);
    // Moves across dates and times, parties grown and shrunk, cancels (one repeated), all at once where they can race.
    const answers = await Promise.all([
      ...made.slice(0, 6).map((b, i) => send('POST', b.Reference, '/reschedule', { Date: days[(i + 1) % 3], Time: i % 2 ? '10:00' : '14:00' })),
      send('PATCH', made[6]!.Reference, '', { Participants: 4 }),
      send('PATCH', made[7]!.Reference, '', { Participants: 1 }),
      send('POST', made[8]!.Reference, '/cancel', { Reason: 'weather' }),
      send('POST', made[8]!.Reference, '/cancel', { Reason: 'weather' }),
      send('POST', made[9]!.Reference, '/cancel'),
    ]);
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    // Holds: one confirmed, one expired, one left on hold; none counted until confirmed.
    const holds = [];
    for (let i = 0; i < 3; i++) holds.push(await book(db.pool, mover, { date: days[1]!, time: '10:00' }, { participants: 2 }));
    await db.pool.query(`UPDATE bookings SET status = 'on_hold', expires_at = now() + interval '1 hour' WHERE reference = ANY($1)`, [
      holds.map((h) => h.Reference),
    ]);
    await db.pool.query(`UPDATE bookings SET status = 'confirmed', expires_at = NULL WHERE reference = $1`, [holds[0]!.Reference]);
    await db.pool.query(`UPDATE bookings SET status = 'expired' WHERE reference = $1`, [holds[1]!.Reference]);
    // A check-in changes no sum.
    await send('POST', made[10]!.Reference, '/check-in');

    const { counted, kept } = await sums(mover.account.id);
    expect(counted.length).toBeGreaterThan(5);
    expect(kept).toEqual(counted);

    const report = await owner.send('GET', `/api/v2/operator/reports/sales?From=${days[0]}&To=${days[2]}`);
    expect(report.status, report.text).toBe(200);
    const live = counted.filter((row) => !row.cancelled);
    const dead = counted.filter((row) => row.cancelled);
    const [eur] = report.body.Currencies;
    expect(eur.Bookings).toBe(live.reduce((n, row) => n + row.bookings, 0));
    expect(eur.Participants).toBe(live.reduce((n, row) => n + row.participants, 0));
    expect(eur.RevenueMinor).toBe(live.reduce((n, row) => n + Number(row.revenue), 0));
    expect(eur.Cancelled.Bookings).toBe(dead.reduce((n, row) => n + row.bookings, 0));

    // A booking removed (as an account's clean-up would) leaves the sums too.
    await db.pool.query(`DELETE FROM bookings WHERE reference = $1`, [made[11]!.Reference]);
    const after = await sums(mover.account.id);
    expect(after.kept).toEqual(after.counted);
  });
});

describe('the fold of past days', () => {
  /** Per day, activity, channel, partner, currency and cancelled: the bookings' own sums, and the folded plus the unfolded. */
  async function daySums(accountId: string) {
    const groups = `local_date::text AS day, activity_id::text AS activity, channel, partner_id, currency`;
    const counted = await db.pool.query(
      `SELECT ${groups}, status = 'cancelled' AS cancelled, count(*)::int AS bookings, sum(participants)::int AS participants,
              sum(total_minor)::bigint::text AS revenue
         FROM bookings WHERE account_id = $1 AND status IN ('confirmed', 'cancelled')
        GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6`,
      [accountId],
    );
    const kept = await db.pool.query(
      `SELECT ${groups}, cancelled, sum(bookings)::int AS bookings, sum(participants)::int AS participants, sum(revenue_minor)::bigint::text AS revenue
         FROM (SELECT local_date, activity_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor
                 FROM booking_sales_daily WHERE account_id = $1
               UNION ALL
               SELECT local_date, activity_id, channel, partner_id, currency, cancelled, bookings, participants, revenue_minor
                 FROM booking_sales_rollup WHERE account_id = $1) parts
        GROUP BY 1, 2, 3, 4, 5, 6 HAVING sum(bookings) <> 0 ORDER BY 1, 2, 3, 4, 5, 6`,
      [accountId],
    );
    return { counted: counted.rows, kept: kept.rows };
  }

  it('answers the same report before and after, takes later changes as new rows, and stays exact beside racing writes', async () => {
    const folder = await createOperator(db.pool);
    const owner = await signedIn(server.url, folder.staff.email);
    const days = [dayFromNow(9), dayFromNow(10), dayFromNow(11)];
    for (const day of days) {
      await createSlot(db.pool, folder, day, '10:00', 40);
      await createSlot(db.pool, folder, day, '14:00', 40);
    }
    const channels = ['online', 'pos', 'ota'] as const;
    const made = [];
    for (let i = 0; i < 15; i++) {
      made.push(await book(db.pool, folder, { date: days[i % 3]!, time: i % 2 ? '14:00' : '10:00' }, { channel: channels[i % 3], participants: 1 + (i % 4) }));
    }
    const send = (method: string, ref: string, suffix: string, body?: unknown) => owner.send(method, `/api/v2/operator/bookings/${ref}${suffix}`, body);
    expect((await send('POST', made[0]!.Reference, '/cancel')).status).toBe(200);
    const reportPath = `/api/v2/operator/reports/sales?From=${days[0]}&To=${days[2]}`;
    const before = await owner.send('GET', reportPath);
    expect(before.status, before.text).toBe(200);
    expect(before.body.Currencies[0].Bookings).toBe(14);

    // Folded a few rows at a time (the worker folds only days before yesterday; any cut-off keeps the sums exact).
    const foldAll = async () => {
      let total = 0;
      for (let folded = -1; folded !== 0; total += folded) folded = await foldBookingSales(db.pool, dayFromNow(12), 3);
      return total;
    };
    expect(await foldAll()).toBeGreaterThan(3);
    const unfolded = await db.pool.query(`SELECT count(*)::int AS n FROM booking_sales_rollup WHERE account_id = $1`, [folder.account.id]);
    expect(unfolded.rows[0].n).toBe(0);
    const folded = await db.pool.query(`SELECT count(*)::int AS n FROM booking_sales_daily WHERE account_id = $1`, [folder.account.id]);
    expect(folded.rows[0].n).toBeGreaterThan(0);
    expect((await owner.send('GET', reportPath)).body).toEqual(before.body);

    // Changes to folded bookings: a cancel, a move to another day, a smaller and a larger party.
    const changes = await Promise.all([
      send('POST', made[1]!.Reference, '/cancel'),
      send('POST', made[2]!.Reference, '/reschedule', { Date: days[0], Time: '14:00' }),
      send('PATCH', made[3]!.Reference, '', { Participants: 1 }),
      send('PATCH', made[4]!.Reference, '', { Participants: 4 }),
    ]);
    for (const answer of changes) expect(answer.status, answer.text).toBe(200);
    let sums = await daySums(folder.account.id);
    expect(sums.kept).toEqual(sums.counted);
    const changed = await owner.send('GET', reportPath);
    expect(changed.body.Currencies[0].Bookings).toBe(13);
    expect(changed.body.Currencies[0].Cancelled.Bookings).toBe(2);

    // Folds racing with new bookings, moves and cancels: each statement takes only rows no write holds.
    const racing = await Promise.all([
      foldAll(),
      ...made.slice(5, 10).map((b, i) => send('POST', b.Reference, '/reschedule', { Date: days[(i + 1) % 3], Time: i % 2 ? '10:00' : '14:00' })),
      foldAll(),
      send('POST', made[10]!.Reference, '/cancel'),
      book(db.pool, folder, { date: days[1]!, time: '10:00' }, { channel: 'pos', participants: 2 }),
      foldAll(),
    ]);
    expect(racing).toHaveLength(10);
    await foldAll();
    sums = await daySums(folder.account.id);
    expect(sums.kept).toEqual(sums.counted);
    const after = await owner.send('GET', reportPath);
    expect(after.body.Currencies[0].Bookings).toBe(sums.counted.filter((row) => !row.cancelled).reduce((n, row) => n + row.bookings, 0));
    expect(after.body.Currencies[0].Cancelled.Bookings).toBe(3);
  });
});
