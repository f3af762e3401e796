// Overbooking by choice through HTTP (issue 39): an owner sells past a timeslot's capacity only with Overbook: true
// (409 without it, as before), staff never (403, nothing sold); the places count as booked (8/6) while partners and the
// booking page still find none; the audit log says who and how many over; the reservation stays one conditional update,
// so racing partner bookings never take a place past the capacity.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createBooking } from '@backbone/use-cases';
import { DomainError } from '@backbone/domain';
import { createOperator, createSlot, dayFromNow, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();

let operator: Operator;
let owner: SessionClient;
let staff: SessionClient;
let partner: { id: string; partnerId: string };
const date = dayFromNow(6);

beforeAll(async () => {
  operator = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  staff = await signedIn(server.url, operator.staff.email);
  const key = await createApiKey(db.pool, operator.account.id, { name: 'Klook', scopes: ['ota'] });
  partner = { id: key.id, partnerId: key.partnerId! };
});

const saleOf = (time: string, participants: number, extra: Record<string, unknown> = {}) => ({
  ActivityID: operator.activity.activityId,
  Date: date,
  Time: time,
  Participants: participants,
  Customer: { FirstName: 'Late', LastName: 'Group' },
  ...extra,
});

async function slotOf(time: string) {
  const list = await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}&To=${date}`);
  return list.body.find((s: { Time: string }) => s.Time === time);
}

/** A booking of another channel (a partner's, the booking page's) for one place; its refusal's code, or 'booked'. */
async function otherChannelBooks(time: string, channel: 'ota' | 'online'): Promise<string> {
  try {
    await createBooking(
      { pool: db.pool },
      {
        accountId: operator.account.id,
        apiKeyId: channel === 'ota' ? partner.id : null,
        partnerId: channel === 'ota' ? partner.partnerId : null,
        hold: null,
        channel,
        activityId: operator.activity.activityId,
        date,
        time,
        participants: 1,
        customer: { FirstName: 'Other', LastName: 'Channel', Email: 'o@example.com' },
        paymentReference: null,
        answers: undefined,
      },
    );
    return 'booked';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('overbooking by choice', () => {
  it('sells past the capacity only for an owner who says so; the slot shows 8/6 and other channels see no places', async () => {
    await createSlot(db.pool, operator, date, '10:00', 6);
    expect((await owner.send('POST', '/api/v2/operator/sales', saleOf('10:00', 5))).status).toBe(201);

    const refused = await owner.send('POST', '/api/v2/operator/sales', saleOf('10:00', 3));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ Available: 1 });
    const byStaff = await staff.send('POST', '/api/v2/operator/sales', saleOf('10:00', 3, { Overbook: true }));
    expect(byStaff.status).toBe(403);
    expect(byStaff.body.type).toMatch(/\/forbidden$/);
    expect(await slotOf('10:00')).toMatchObject({ Capacity: 6, Booked: 5, Available: 1 });

    const sold = await owner.send('POST', '/api/v2/operator/sales', saleOf('10:00', 3, { Overbook: true }));
    expect(sold.status, sold.text).toBe(201);
    expect(await slotOf('10:00')).toMatchObject({ Capacity: 6, Booked: 8, Available: 0 });
    expect(await otherChannelBooks('10:00', 'ota')).toBe('insufficient-capacity');
    expect(await otherChannelBooks('10:00', 'online')).toBe('insufficient-capacity');

    const audit = await owner.send('GET', '/api/v2/operator/audit?Action=booking.overbooked');
    expect(audit.body.Entries).toHaveLength(1);
    expect(audit.body.Entries[0]).toMatchObject({
      Actor: { Kind: 'user', Label: operator.owner.email },
      Subject: { Type: 'booking', ID: sold.body.Reference },
      Changes: {
        Timeslot: { From: null, To: `${operator.activity.name}, ${date} 10:00` },
        Participants: { To: 3 },
        OverCapacity: { To: 2 },
        Booked: { To: '8 of 6' },
      },
    });

    // A cancellation frees places as usual: back within the capacity, others book again, never past it.
    const cancelled = await owner.send('POST', `/api/v2/operator/bookings/${sold.body.Reference}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(await slotOf('10:00')).toMatchObject({ Booked: 5, Available: 1 });
    expect(await otherChannelBooks('10:00', 'ota')).toBe('booked');
    expect(await otherChannelBooks('10:00', 'ota')).toBe('insufficient-capacity');
  });

  it('records nothing when the party fits after all, and keeps refusing a closed timeslot or too large a party', async () => {
    await createSlot(db.pool, operator, date, '11:00', 6);
    expect((await owner.send('POST', '/api/v2/operator/sales', saleOf('11:00', 2, { Overbook: true }))).status).toBe(201);
    const audit = await owner.send('GET', '/api/v2/operator/audit?Action=booking.overbooked');
    expect(audit.body.Entries).toHaveLength(1);
    const slot = await slotOf('11:00');
    expect((await owner.send('POST', `/api/v2/operator/timeslots/${slot.TimeslotID}/close`, {})).status).toBe(200);
    const closed = await owner.send('POST', '/api/v2/operator/sales', saleOf('11:00', 6, { Overbook: true }));
    expect(closed.status).toBe(409);
    expect(closed.body.type).toMatch(/\/timeslot-unavailable$/);
    await createSlot(db.pool, operator, date, '12:00', 2);
    const tooLarge = await owner.send('POST', '/api/v2/operator/sales', saleOf('12:00', 999, { Overbook: true }));
    expect(tooLarge.status).toBe(422);
    expect(await slotOf('12:00')).toMatchObject({ Booked: 0 });
  });

  it("never lets racing partner bookings past the capacity while an owner overbooks; another account's owner cannot touch it", async () => {
    await createSlot(db.pool, operator, date, '15:00', 6);
    const partners = Array.from({ length: 10 }, () => otherChannelBooks('15:00', 'ota'));
    const desk = owner.send('POST', '/api/v2/operator/sales', saleOf('15:00', 3, { Overbook: true }));
    const [results, sold] = await Promise.all([Promise.all(partners), desk]);
    expect(sold.status, sold.text).toBe(201);
    const partnersBooked = results.filter((r) => r === 'booked').length;
    const slot = await slotOf('15:00');
    expect(slot.Booked).toBe(partnersBooked + 3);
    // Every partner booking found room within the capacity when it was made.
    expect(partnersBooked).toBeLessThanOrEqual(6);
    expect(partnersBooked).toBeGreaterThanOrEqual(3);
    const { rows } = await db.pool.query<{ booked: number; sum: number }>(
      `SELECT t.booked, (SELECT sum(participants)::int FROM bookings b WHERE b.timeslot_id = t.id AND b.status = 'confirmed') AS sum
         FROM timeslots t WHERE t.id = $1`,
      [slot.TimeslotID],
    );
    expect(rows[0]!.booked).toBe(rows[0]!.sum);

    const other = await createOperator(db.pool);
    const stranger = await signedIn(server.url, other.owner.email);
    const foreign = await stranger.send('POST', '/api/v2/operator/sales', saleOf('15:00', 1, { Overbook: true }));
    expect(foreign.status).toBe(422);
    expect((await slotOf('15:00')).Booked).toBe(partnersBooked + 3);
  });
});
