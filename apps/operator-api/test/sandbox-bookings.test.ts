// The partners' sandbox in the operator's views (issue 40): a test key's bookings are absent from the live bookings
// list, the CSV, the manifest and the sales report, and shown apart under the Test bookings filter (Test=true).
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createBooking } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();
const date = dayFromNow(4);
let operator: Operator;
let staff: SessionClient;
let live: string;
let test: string;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  await createSlot(db.pool, operator, date, '10:00', 5);
  const liveKey = await createApiKey(db.pool, operator.account.id, { name: 'Klook', scopes: ['ota'] });
  const testKey = await createApiKey(db.pool, operator.account.id, { name: 'Klook sandbox', scopes: ['ota'], partnerId: liveKey.partnerId, test: true });
  const partnerBooking = async (key: typeof liveKey, participants: number) =>
    createBooking(
      { pool: db.pool },
      {
        accountId: operator.account.id,
        apiKeyId: key.id,
        partnerId: key.partnerId,
        test: key.test,
        hold: null,
        channel: 'ota',
        activityId: operator.activity.activityId,
        date,
        time: '10:00',
        participants,
        customer: { FirstName: 'Kim', LastName: 'Lee', Email: 'kim@example.com' },
        paymentReference: null,
        answers: undefined,
      },
    );
  // The whole capacity in the sandbox, and live bookings beside it all the same.
  test = (await partnerBooking(testKey, 5)).value.Reference;
  live = (await partnerBooking(liveKey, 2)).value.Reference;
  await book(db.pool, operator, { date, time: '10:00' }, { channel: 'pos', participants: 1 });
});

describe('test bookings in the operator’s views', () => {
  it('are absent from the live list and CSV, and listed under Test=true', async () => {
    const listed = await staff.send('GET', `/api/v2/operator/bookings?From=${date}&To=${date}`);
    expect(listed.status, listed.text).toBe(200);
    const references = listed.body.Bookings.map((b: { Reference: string }) => b.Reference);
    expect(references).toContain(live);
    expect(references).not.toContain(test);

    const tests = await staff.send('GET', `/api/v2/operator/bookings?From=${date}&To=${date}&Test=true`);
    expect(tests.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([test]);

    const csv = await staff.send('GET', `/api/v2/operator/bookings.csv?From=${date}&To=${date}`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain(live);
    expect(csv.text).not.toContain(test);
    const testCsv = await staff.send('GET', `/api/v2/operator/bookings.csv?From=${date}&To=${date}&Test=true`);
    expect(testCsv.text).toContain(test);
    expect(testCsv.text).not.toContain(live);
  });

  it('are absent from the manifest and the sales report', async () => {
    const manifest = await staff.send('GET', `/api/v2/operator/manifest?Date=${date}`);
    expect(manifest.status, manifest.text).toBe(200);
    expect(JSON.stringify(manifest.body)).not.toContain(test);
    expect(manifest.body.Totals).toMatchObject({ Bookings: 2, Participants: 3 });

    const report = await staff.send('GET', `/api/v2/operator/reports/sales?From=${date}&To=${date}`);
    expect(report.status, report.text).toBe(200);
    expect(report.body.Currencies[0]).toMatchObject({ Bookings: 2, Participants: 3 });
  });
});
