// The sales report through HTTP: confirmed bookings of the range per currency by channel, partner and activity,
// cancelled ones apart, holds and other dates and accounts left out; the range's bad input.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity } from '@backbone/testkit';
import { createApiKey } from '@backbone/db';
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
          Cancelled: { Bookings: 0, Participants: 0, RevenueMinor: 0 },
        },
      ],
    });
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
