// A price set by hand at the desk through HTTP (issue 39): a sale or an edit charges a discount (staff and owners) or
// more than the list price (owners only), always with a reason; the booking, its history, the audit log, the list, the
// CSV and the sales report all carry the price actually charged; bad input is a 422 naming the member and changes
// nothing; a refused price rolls the sale's reservation back.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createBooking } from '@backbone/use-cases';
import { createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let owner: SessionClient;
let staff: SessionClient;
const date = dayFromNow(5);
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());

beforeAll(async () => {
  operator = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  staff = await signedIn(server.url, operator.staff.email);
  await createSlot(db.pool, operator, date, '10:00', 40);
});

const saleOf = (participants: number, extra: Record<string, unknown> = {}) => ({
  ActivityID: operator.activity.activityId,
  Date: date,
  Time: '10:00',
  Participants: participants,
  Customer: { FirstName: 'Walk', LastName: 'In' },
  ...extra,
});

async function booked(client: SessionClient): Promise<number> {
  const slots = await client.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}&To=${date}`);
  return slots.body.Timeslots?.[0]?.Booked ?? slots.body[0]?.Booked;
}

describe('a price set by hand at the desk', () => {
  it('sells at a discount with a reason: the total charged everywhere, the list price beside it, history and audit', async () => {
    const sold = await staff.send('POST', '/api/v2/operator/sales', saleOf(2, { PriceOverride: { TotalMinor: 8000, Currency: 'EUR', Reason: ' Regulars ' } }));
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.Price).toMatchObject({ UnitAmount: 4500, TotalAmount: 8000, Currency: 'EUR' });
    const reference = sold.body.Reference as string;

    const detail = await staff.send('GET', `/api/v2/operator/bookings/${reference}`);
    expect(detail.body.Price).toEqual({ UnitPriceMinor: 4500, Currency: 'EUR', TotalMinor: 8000, ListTotalMinor: 9000, Reason: 'Regulars', Source: 'sale' });

    const history = await staff.send('GET', `/api/v2/operator/bookings/${reference}/history`);
    expect(history.body.Items[1]).toMatchObject({
      Action: 'repriced',
      Actor: { Kind: 'user', UserEmail: operator.staff.email },
      Reason: 'Regulars',
      Changes: { Price: { From: { Amount: 9000, Currency: 'EUR' }, To: { Amount: 8000, Currency: 'EUR' } } },
    });

    const audit = await owner.send('GET', '/api/v2/operator/audit?Action=booking.price_changed');
    expect(audit.body.Entries[0]).toMatchObject({
      Action: 'booking.price_changed',
      Actor: { Kind: 'user', Label: operator.staff.email },
      Subject: { Type: 'booking', ID: reference, Label: `${reference}, Walk In` },
      Changes: { Price: { From: { Amount: 9000, Currency: 'EUR' }, To: { Amount: 8000, Currency: 'EUR' } }, Reason: { From: null, To: 'Regulars' } },
    });

    const csv = await staff.send('GET', `/api/v2/operator/bookings.csv?Q=${reference}`);
    expect(csv.text).toContain('80.00');

    const report = await staff.send('GET', `/api/v2/operator/reports/sales?From=${today()}&To=${today()}&By=booked`);
    expect(report.body.Currencies[0]).toMatchObject({ Bookings: 1, RevenueMinor: 8000 });
    // The report by the days the bookings take place on reads the rollup, which the price set by hand moved too.
    const byDay = await staff.send('GET', `/api/v2/operator/reports/sales?From=${date}&To=${date}`);
    expect(byDay.body.Currencies[0]).toMatchObject({ Bookings: 1, RevenueMinor: 8000 });
  });

  it('lets only owners charge more than the list price; staff get 403 and nothing is sold', async () => {
    const before = await booked(staff);
    const raise = { PriceOverride: { TotalMinor: 5000, Currency: 'EUR', Reason: 'Private guide' } };
    const refused = await staff.send('POST', '/api/v2/operator/sales', saleOf(1, raise));
    expect(refused.status).toBe(403);
    expect(refused.body.type).toMatch(/\/forbidden$/);
    expect(await booked(staff)).toBe(before);
    const sold = await owner.send('POST', '/api/v2/operator/sales', saleOf(1, raise));
    expect(sold.status, sold.text).toBe(201);
    expect(sold.body.Price.TotalAmount).toBe(5000);
  });

  it('refuses a price without a reason, in another currency, negative or with a long reason: 422 naming the member, nothing sold', async () => {
    const before = await booked(staff);
    const cases: [Record<string, unknown>, string][] = [
      [{ TotalMinor: 4000, Currency: 'EUR' }, 'PriceOverride.Reason'],
      [{ TotalMinor: 4000, Currency: 'EUR', Reason: '   ' }, 'PriceOverride.Reason'],
      [{ TotalMinor: 4000, Currency: 'USD', Reason: 'x' }, 'PriceOverride.Currency'],
      [{ TotalMinor: -1, Currency: 'EUR', Reason: 'x' }, 'PriceOverride.TotalMinor'],
      [{ TotalMinor: 4000, Currency: 'EUR', Reason: 'x'.repeat(201) }, 'PriceOverride.Reason'],
    ];
    for (const [PriceOverride, member] of cases) {
      const answer = await staff.send('POST', '/api/v2/operator/sales', saleOf(1, { PriceOverride }));
      expect(answer.status, JSON.stringify(PriceOverride)).toBe(422);
      expect(JSON.stringify(answer.body.errors)).toContain(member);
    }
    expect(await booked(staff)).toBe(before);
    // The list price itself is no override: no reason needed, nothing recorded.
    const plain = await staff.send('POST', '/api/v2/operator/sales', saleOf(1, { PriceOverride: { TotalMinor: 4500, Currency: 'EUR' } }));
    expect(plain.status).toBe(201);
    expect((await staff.send('GET', `/api/v2/operator/bookings/${plain.body.Reference}`)).body.Price.Reason).toBeNull();
  });

  it("edits a booking's price: a discount, back to the list price, dropped with a new party; never a partner's", async () => {
    const sold = await staff.send('POST', '/api/v2/operator/sales', saleOf(3));
    const path = `/api/v2/operator/bookings/${sold.body.Reference}`;
    const discounted = await staff.send('PATCH', path, { PriceOverride: { TotalMinor: 12000, Currency: 'EUR', Reason: 'Birthday' } });
    expect(discounted.status, discounted.text).toBe(200);
    expect(discounted.body.Price).toMatchObject({ TotalMinor: 12000, ListTotalMinor: 13500, Reason: 'Birthday' });
    const history = await staff.send('GET', `${path}/history`);
    expect(history.body.Items.at(-1)).toMatchObject({
      Action: 'edited',
      Reason: 'Birthday',
      Changes: { Price: { From: { Amount: 13500, Currency: 'EUR' }, To: { Amount: 12000, Currency: 'EUR' } } },
    });
    expect((await staff.send('PATCH', path, { PriceOverride: { TotalMinor: 14000, Currency: 'EUR', Reason: 'More' } })).status).toBe(403);

    const resized = await staff.send('PATCH', path, { Participants: 2 });
    expect(resized.body.Price).toMatchObject({ TotalMinor: 9000, ListTotalMinor: 9000, Reason: null });
    await staff.send('PATCH', path, { PriceOverride: { TotalMinor: 8500, Currency: 'EUR', Reason: 'Loyal' } });
    const back = await owner.send('PATCH', path, { PriceOverride: null });
    expect(back.body.Price).toMatchObject({ TotalMinor: 9000, Reason: null });
    const audit = await owner.send('GET', '/api/v2/operator/audit?Action=booking.price_changed');
    expect(audit.body.Entries[0]).toMatchObject({
      Actor: { Label: operator.owner.email },
      Changes: { Price: { From: { Amount: 8500, Currency: 'EUR' }, To: { Amount: 9000, Currency: 'EUR' } }, Reason: { From: 'Loyal', To: null } },
    });

    const key = await createApiKey(db.pool, operator.account.id, { name: 'Klook', scopes: ['ota'] });
    const { value: partners } = await createBooking(
      { pool: db.pool },
      {
        accountId: operator.account.id,
        apiKeyId: key.id,
        partnerId: key.partnerId!,
        hold: null,
        channel: 'ota',
        activityId: operator.activity.activityId,
        date,
        time: '10:00',
        participants: 1,
        customer: { FirstName: 'Otto', LastName: 'Ta', Email: 'o@example.com' },
        paymentReference: null,
        answers: undefined,
      },
    );
    const onPartner = await owner.send('PATCH', `/api/v2/operator/bookings/${partners.Reference}`, {
      PriceOverride: { TotalMinor: 1000, Currency: 'EUR', Reason: 'x' },
    });
    expect(onPartner.status).toBe(422);
    expect(onPartner.body.errors[0].field).toBe('PriceOverride');
  });

  it("never reprices another account's booking", async () => {
    const other = await createOperator(db.pool);
    const stranger = await signedIn(server.url, other.owner.email);
    const sold = await staff.send('POST', '/api/v2/operator/sales', saleOf(1));
    const answer = await stranger.send('PATCH', `/api/v2/operator/bookings/${sold.body.Reference}`, {
      PriceOverride: { TotalMinor: 0, Currency: 'EUR', Reason: 'free' },
    });
    expect(answer.status).toBe(404);
    expect((await staff.send('GET', `/api/v2/operator/bookings/${sold.body.Reference}`)).body.Price.TotalMinor).toBe(4500);
  });
});
