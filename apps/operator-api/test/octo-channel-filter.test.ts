// The bookings list and its CSV filtered by channel with OCTO as a channel of its own (issue 39.10): Channel=octo finds
// a partner's bookings made through OCTO, Channel=ota the partner API's own, and the others stay as they were.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createBooking } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let staff: SessionClient;
const date = dayFromNow(7);
const refs: Record<'octo' | 'ota' | 'online' | 'pos', string> = { octo: '', ota: '', online: '', pos: '' };

beforeAll(async () => {
  operator = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  await createSlot(db.pool, operator, date, '10:00', 50);
  const key = await createApiKey(db.pool, operator.account.id, { name: 'Viator', scopes: ['ota'] });
  const partnerBooking = async (lastName: string) =>
    (
      await createBooking(
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
          customer: { FirstName: 'Pat', LastName: lastName, Email: 'pat@example.com' },
          paymentReference: null,
          answers: undefined,
        },
      )
    ).value.Reference;
  refs.octo = await partnerBooking('Octo');
  // A booking the OCTO interface made carries the reseller's OCTO uuid (what OperatorBooking.Octo reads).
  await db.pool.query('UPDATE bookings SET octo_uuid = gen_random_uuid() WHERE account_id = $1 AND reference = $2', [operator.account.id, refs.octo]);
  refs.ota = await partnerBooking('Api');
  refs.online = (await book(db.pool, operator, { date, time: '10:00' }, { channel: 'online' })).Reference;
  refs.pos = (await book(db.pool, operator, { date, time: '10:00' }, { channel: 'pos' })).Reference;
});

describe('the channel filter with OCTO', () => {
  it('finds each channel alone, OCTO apart from the partner API, in the list and the CSV', async () => {
    for (const channel of ['octo', 'ota', 'online', 'pos'] as const) {
      const list = await staff.send('GET', `/api/v2/operator/bookings?Channel=${channel}`);
      expect(list.status, list.text).toBe(200);
      expect(list.body.Bookings.map((b: { Reference: string }) => b.Reference)).toEqual([refs[channel]]);
      const csv = await staff.send('GET', `/api/v2/operator/bookings.csv?Channel=${channel}`);
      expect(csv.status).toBe(200);
      for (const [other, reference] of Object.entries(refs)) expect(csv.text.includes(reference), `${channel} CSV has ${other}`).toBe(other === channel);
    }
    const octo = await staff.send('GET', '/api/v2/operator/bookings?Channel=octo&Q=Octo');
    expect(octo.body.Bookings[0]).toMatchObject({ Reference: refs.octo, Channel: 'ota', Octo: true });
    expect((await staff.send('GET', '/api/v2/operator/bookings')).body.Bookings).toHaveLength(4);
  });

  it('refuses another channel name with a 422 naming Channel', async () => {
    const answer = await staff.send('GET', '/api/v2/operator/bookings?Channel=OCTO');
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].field).toBe('Channel');
  });
});
