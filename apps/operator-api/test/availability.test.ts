// Point-of-sale sales and availability: a sale goes through the same reservation (409 when full), the week's
// timeslots show capacity, booked and available, closing (the owner's, as is the whole schedule) stops the partner
// API from offering a slot and every channel from booking it, a capacity never goes below what is booked, and another
// account's slots are 404.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { request, useTestServer } from '@backbone/testkit';
import { book, createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const { db, server } = useOperatorApi();
const partner = useTestServer(() => createTestPartnerApp(db.pool));

let operator: Operator;
let other: Operator;
let staff: SessionClient;
let owner: SessionClient;
let ota: string;
const date = dayFromNow(4);

beforeAll(async () => {
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  owner = await signedIn(server.url, operator.owner.email);
  ota = await operator.keyWith(['ota']);
});

const sale = (time: string, participants: number, overrides: Record<string, unknown> = {}) => ({
  ActivityID: operator.activity.activityId,
  Date: date,
  Time: time,
  Participants: participants,
  Customer: { FirstName: 'Walk', LastName: 'In', Email: 'walk-in@example.com' },
  PaymentReference: 'TILL-42',
  ...overrides,
});

async function slotOf(time: string) {
  const list = await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}&To=${date}`);
  expect(list.status).toBe(200);
  return list.body.find((s: { Time: string }) => s.Time === time);
}

describe('point-of-sale sales', () => {
  it('books a pos sale that shows in the bookings and in the timeslot', async () => {
    await createSlot(db.pool, operator, date, '09:00', 4);
    const sold = await staff.send('POST', '/api/v2/operator/sales', sale('09:00', 3));
    expect(sold.status).toBe(201);
    expect(sold.body).toMatchObject({ Channel: 'pos', Status: 'confirmed', Participants: 3, PaymentReference: 'TILL-42' });
    const listed = await staff.send('GET', `/api/v2/operator/bookings?Q=${sold.body.Reference}`);
    expect(listed.body.Bookings[0]).toMatchObject({ Reference: sold.body.Reference, Channel: 'pos' });
    expect(await slotOf('09:00')).toMatchObject({ Capacity: 4, Booked: 3, Available: 1, Status: 'open', Started: false });
  });

  it('refuses to oversell with 409 and the places left', async () => {
    await createSlot(db.pool, operator, date, '10:00', 2);
    const full = await staff.send('POST', '/api/v2/operator/sales', sale('10:00', 3));
    expect(full.status).toBe(409);
    expect(full.body.type).toBe(`${PROBLEM_BASE}/insufficient-capacity`);
    expect(full.body.detail).toMatch(/2/);
    expect((await slotOf('10:00')).Booked).toBe(0);
  });

  it('sells a hidden activity, which partners cannot book', async () => {
    const { createTestActivity } = await import('@backbone/testkit');
    const hidden = await createTestActivity(db.pool, operator.account.id, { timeZone: 'Europe/Lisbon', inShopfront: false });
    await createSlot(db.pool, operator, date, '11:00', 5, hidden);
    expect((await staff.send('POST', '/api/v2/operator/sales', sale('11:00', 1, { ActivityID: hidden.activityId }))).status).toBe(201);
  });

  it('keeps an Idempotency-Key to the user who sent it: another user gets a sale of its own, the same user a replay', async () => {
    await createSlot(db.pool, operator, date, '12:00', 10);
    const owner = await signedIn(server.url, operator.owner.email);
    const headers = { 'idempotency-key': 'till-press-1' };
    const first = await staff.send('POST', '/api/v2/operator/sales', sale('12:00', 2), headers);
    const again = await staff.send('POST', '/api/v2/operator/sales', sale('12:00', 2), headers);
    const byOwner = await owner.send('POST', '/api/v2/operator/sales', sale('12:00', 2), headers);
    const byKey = await request(server.url, 'POST', '/api/v2/operator/sales', { key: operator.key, body: sale('12:00', 2), headers });
    expect([first.status, again.status, byOwner.status, byKey.status]).toEqual([201, 201, 201, 201]);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(byOwner.headers.get('idempotent-replayed')).toBeNull();
    expect(byKey.headers.get('idempotent-replayed')).toBeNull();
    expect(new Set([first.body.Reference, byOwner.body.Reference, byKey.body.Reference]).size).toBe(3);
    expect((await slotOf('12:00')).Booked).toBe(6);
  });

  it('sells to a walk-in without an e-mail address and writes them no e-mail; with an address the confirmation is queued', async () => {
    await createSlot(db.pool, operator, date, '13:00', 6);
    const anonymous = await staff.send('POST', '/api/v2/operator/sales', sale('13:00', 2, { Customer: { FirstName: 'Walk', LastName: 'In' } }));
    expect(anonymous.status, anonymous.text).toBe(201);
    expect(anonymous.body.Customer).toEqual({ FirstName: 'Walk', LastName: 'In', Phone: null });
    const mailed = await staff.send('POST', '/api/v2/operator/sales', sale('13:00', 1));
    expect(mailed.status).toBe(201);
    const messages = async (reference: string) =>
      (
        await db.pool.query(`SELECT m.kind FROM mail_messages m JOIN bookings b ON b.id = m.booking_id WHERE b.account_id = $1 AND b.reference = $2`, [
          operator.account.id,
          reference,
        ])
      ).rows.map((r: { kind: string }) => r.kind);
    expect(await messages(anonymous.body.Reference)).toEqual([]);
    expect(await messages(mailed.body.Reference)).toContain('confirmation');
    // The first name and the last name stay required; an address, when given, must be one.
    const nameless = await staff.send('POST', '/api/v2/operator/sales', sale('13:00', 1, { Customer: { LastName: 'In' } }));
    expect(nameless.status).toBe(422);
    expect(nameless.body.errors).toEqual([expect.objectContaining({ field: 'Customer.FirstName' })]);
    expect((await staff.send('POST', '/api/v2/operator/sales', sale('13:00', 1, { Customer: { FirstName: 'A', LastName: 'B', Email: 'nope' } }))).status).toBe(
      422,
    );
    expect((await slotOf('13:00')).Booked).toBe(3);
  });

  it("refuses a sale without a customer, with Hold, or for another account's activity (422)", async () => {
    expect((await staff.send('POST', '/api/v2/operator/sales', sale('09:00', 1, { Customer: undefined }))).status).toBe(422);
    expect((await staff.send('POST', '/api/v2/operator/sales', sale('09:00', 1, { Hold: { Minutes: 5 } }))).status).toBe(422);
    expect((await staff.send('POST', '/api/v2/operator/sales', sale('10:00', 1, { ActivityID: other.activity.activityId }))).status).toBe(422);
  });
});

describe('availability', () => {
  it('closes a timeslot: the partner API stops offering it and no channel books it; reopening brings it back', async () => {
    const slot = await createSlot(db.pool, operator, date, '15:00', 6);
    const offered = async () => {
      const answer = await request(partner.url, 'GET', `/api/v2/ota/partner/availability/${operator.activity.activityId}/timeslots?Date=${date}`, { key: ota });
      return answer.body.map((s: { Time: string }) => s.Time) as string[];
    };
    expect(await offered()).toContain('15:00');
    const closed = await owner.send('POST', `/api/v2/operator/timeslots/${slot.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ TimeslotID: slot.id, Status: 'closed', Capacity: 6 });
    expect(await offered()).not.toContain('15:00');
    const refused = await staff.send('POST', '/api/v2/operator/sales', sale('15:00', 1));
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe(`${PROBLEM_BASE}/timeslot-unavailable`);
    const reopened = await owner.send('POST', `/api/v2/operator/timeslots/${slot.id}/reopen`);
    expect(reopened.body.Status).toBe('open');
    expect(await offered()).toContain('15:00');
  });

  it('never sets a capacity below what is booked (409 /capacity-below-booked)', async () => {
    const slot = await createSlot(db.pool, operator, date, '16:00', 6);
    await book(db.pool, operator, { date, time: '16:00' }, { participants: 4 });
    const below = await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: 3 });
    expect(below.status).toBe(409);
    expect(below.body).toMatchObject({ type: `${PROBLEM_BASE}/capacity-below-booked`, Booked: 4 });
    const equal = await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: 4 });
    expect(equal.status).toBe(200);
    expect(equal.body).toMatchObject({ Capacity: 4, Booked: 4, Available: 0 });
    const more = await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: 10 });
    expect(more.body).toMatchObject({ Capacity: 10, Available: 6 });
    expect((await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: -1 })).status).toBe(422);
  });

  it('counts a lapsed hold as free, and lets the capacity go down to what is really booked', async () => {
    const slot = await createSlot(db.pool, operator, date, '17:00', 6);
    await book(db.pool, operator, { date, time: '17:00' }, { participants: 2 });
    // A partner's hold of 3 places whose expiry has passed, not yet swept.
    const held = await request(partner.url, 'POST', '/api/v2/ota/partner/booking', {
      key: ota,
      body: { ActivityID: operator.activity.activityId, Date: date, Time: '17:00', Participants: 3, Hold: { Minutes: 5 } },
    });
    expect(held.status).toBe(201);
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [held.body.Reference]);
    expect(await slotOf('17:00')).toMatchObject({ Booked: 2, Available: 4 });
    const down = await owner.send('PATCH', `/api/v2/operator/timeslots/${slot.id}`, { Capacity: 2 });
    expect(down.status).toBe(200);
    expect(down.body).toMatchObject({ Capacity: 2, Booked: 2 });
  });

  it("keeps the tenant wall: another account's timeslot and activity are 404", async () => {
    const theirs = await createSlot(db.pool, other, date, '09:00', 5);
    for (const [method, path, body] of [
      ['POST', `/api/v2/operator/timeslots/${theirs.id}/close`, undefined],
      ['POST', `/api/v2/operator/timeslots/${theirs.id}/reopen`, undefined],
      ['PATCH', `/api/v2/operator/timeslots/${theirs.id}`, { Capacity: 1 }],
      ['GET', `/api/v2/operator/activities/${other.activity.activityId}/timeslots?From=${date}&To=${date}`, undefined],
    ] as const) {
      const answer = await owner.send(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    }
    const { rows } = await db.pool.query('SELECT status, capacity FROM timeslots WHERE id = $1', [theirs.id]);
    expect(rows[0]).toEqual({ status: 'open', capacity: 5 });
  });

  it('lists a week: empty days are fine, bad ranges are 422', async () => {
    const week = await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${dayFromNow(20)}&To=${dayFromNow(26)}`);
    expect(week.status).toBe(200);
    expect(week.body).toEqual([]);
    expect((await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}&To=${dayFromNow(1)}`)).status).toBe(
      422,
    );
    expect((await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}&To=${dayFromNow(100)}`)).status).toBe(
      422,
    );
    expect((await staff.send('GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}`)).status).toBe(422);
  });
});
