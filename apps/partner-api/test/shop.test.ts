// The booking page's API, happy paths: the page and its shopfront, an activity with its questions, the calendar and
// a date's timeslots (full ones marked), a hold, Book, the manage link (look, move, cancel), and what the operator
// sees of it: an ordinary booking of channel online, no partner, priced at booking time, the customer in its history.
import { beforeAll, describe, expect, it } from 'vitest';
import { updateActivity } from '@backbone/db';
import { createTestActivity, createTestQuestion, createTestTimeslot, futureDate } from '@backbone/testkit';
import { CUSTOMER, createShopOperator, freshSlot, shopClient, type ShopOperator } from './shop-support.js';
import { usePartnerApi } from './support.js';

const { db, server } = usePartnerApi();
let op: ShopOperator;
let shop: ReturnType<typeof shopClient>;

beforeAll(async () => {
  op = await createShopOperator(db.pool, { note: 'Meet at the pier.', terms: 'No refunds within 24 h.' });
  shop = shopClient(() => server.url, op.slug);
});

const BOOK = { Customer: CUSTOMER, AcceptTerms: true };

describe('reading the page', () => {
  it('answers the page with its shopfront, and never a hidden activity', async () => {
    const hidden = await createTestActivity(db.pool, op.account.id, { name: 'Staff training' });
    await updateActivity(db.pool, op.account.id, hidden.activityId, { inShopfront: false });
    const page = await shop.send('GET', '');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      Slug: op.slug,
      Currency: 'EUR',
      Locale: 'en-GB',
      TimeZone: 'Europe/Berlin',
      Note: 'Meet at the pier.',
      Terms: 'No refunds within 24 h.',
      PaymentMethod: 'pay_at_venue',
    });
    const names = (page.body.Activities as Array<{ Name: string }>).map((a) => a.Name);
    expect(names).toContain('Sea kayak');
    expect(names).not.toContain('Staff training');
    expect(page.body.Activities[0]).toMatchObject({ Price: { Amount: 4500, Currency: 'EUR' }, MinParticipants: 1, MaxParticipants: 6 });
  });

  it('answers one activity with its waiver questions', async () => {
    const question = await createTestQuestion(db.pool, op.activity, { question: 'Can you swim?', type: 'checkbox', required: true });
    const activity = await shop.send('GET', `/activities/${op.activity.activityId}`);
    expect(activity.status).toBe(200);
    expect(activity.body.Questions).toContainEqual(expect.objectContaining({ ID: question.id, Question: 'Can you swim?', Type: 'checkbox', Required: true }));
  });

  it("lists the dates of a month with free places, and a date's timeslots with the full ones marked", async () => {
    const date = futureDate(60);
    await createTestTimeslot(db.pool, op.activity, { date, time: '09:00', capacity: 2 });
    await createTestTimeslot(db.pool, op.activity, { date, time: '15:00', capacity: 4 });
    const held = await shop.hold(op.activity, { date, time: '09:00' }, 2);
    expect(held.status).toBe(201);

    const month = await shop.send('GET', `/activities/${op.activity.activityId}/dates?Month=${date.slice(0, 7)}`);
    expect(month.status).toBe(200);
    expect(month.body).toContainEqual({ Date: date, Available: 4, Timeslots: 1 });

    const slots = await shop.send('GET', `/activities/${op.activity.activityId}/timeslots?Date=${date}`);
    expect(slots.status).toBe(200);
    expect(slots.body).toMatchObject([
      { Time: '09:00', Available: 0, Full: true },
      { Time: '15:00', Available: 4, Full: false },
    ]);
  });
});

describe('booking', () => {
  it('holds the places, then Book confirms an online booking of no partner at the price at booking time', async () => {
    const slot = await freshSlot(db.pool, op.activity, 5);
    const held = await shop.hold(op.activity, slot, 3);
    expect(held.status).toBe(201);
    expect(held.body.Token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(held.body.Booking).toMatchObject({ Status: 'on_hold', Participants: 3, ActivityName: 'Sea kayak', Price: { UnitAmount: 4500, TotalAmount: 13500 } });
    const expires = Date.parse(held.body.Booking.ExpiresAt);
    expect(expires - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(10 * 60_000);

    // A price change after the hold does not touch it.
    await updateActivity(db.pool, op.account.id, op.activity.activityId, { priceMinor: 9900 });
    const booked = await shop.confirm(held.body.Token, BOOK);
    await updateActivity(db.pool, op.account.id, op.activity.activityId, { priceMinor: 4500 });
    expect(booked.status, booked.text).toBe(200);
    expect(booked.body).toMatchObject({ Status: 'confirmed', ExpiresAt: null, Customer: CUSTOMER, Price: { UnitAmount: 4500, TotalAmount: 13500 } });

    const { rows } = await db.pool.query(`SELECT channel, partner_id, status, payment_reference FROM bookings WHERE reference = $1`, [booked.body.Reference]);
    expect(rows[0]).toEqual({ channel: 'online', partner_id: null, status: 'confirmed', payment_reference: null });
    const again = await shop.confirm(held.body.Token, BOOK);
    expect(again.status).toBe(200);
    expect(again.body.Reference).toBe(booked.body.Reference);
    // One order.completed in the outbox, written by the confirm that booked (not by the repeat), for the relay.
    const orders = await db.pool.query(`SELECT payload FROM outbox_events WHERE type = 'order.completed' AND payload->>'BasketID' = $1`, [
      booked.body.Reference,
    ]);
    expect(orders.rows).toEqual([{ payload: { BasketID: booked.body.Reference } }]);
  });

  it('keeps only the SHA-256 of the token', async () => {
    const held = await shop.hold(op.activity, await freshSlot(db.pool, op.activity), 1);
    const { rows } = await db.pool.query<{ token_hash: Buffer }>(
      `SELECT k.token_hash FROM booking_tokens k JOIN bookings b ON b.id = k.booking_id WHERE b.reference = $1`,
      [held.body.Booking.Reference],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash.toString('base64url')).not.toBe(held.body.Token);
    expect(rows[0]!.token_hash).toHaveLength(32);
  });

  it('a released hold frees its places at once', async () => {
    const slot = await freshSlot(db.pool, op.activity, 2);
    const held = await shop.hold(op.activity, slot, 2);
    expect((await shop.hold(op.activity, slot, 1)).status).toBe(409);
    expect((await shop.release(held.body.Token)).status).toBe(204);
    expect((await shop.release(held.body.Token)).status).toBe(204);
    const again = await shop.hold(op.activity, slot, 2);
    expect(again.status).toBe(201);
  });
});

describe('the manage link', () => {
  it('shows the booking, moves it to another timeslot of its activity, then cancels it; the history names the customer', async () => {
    const slot = await freshSlot(db.pool, op.activity, 5);
    const later = await createTestTimeslot(db.pool, op.activity, { date: slot.date, time: '16:00', capacity: 5 });
    const held = await shop.hold(op.activity, slot, 2);
    await shop.confirm(held.body.Token, BOOK);

    const look = await shop.booking(held.body.Token);
    expect(look.status).toBe(200);
    expect(look.body).toMatchObject({ Status: 'confirmed', Date: slot.date, Time: '10:00', ChangeableUntil: expect.any(String) });

    const moved = await shop.move(held.body.Token, { date: later.date, time: '16:00' });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ Time: '16:00', Participants: 2 });

    const cancelled = await shop.cancel(held.body.Token, { Reason: 'Plans changed' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.Status).toBe('cancelled');

    const { rows } = await db.pool.query<{ action: string; actor_kind: string }>(
      `SELECT h.action, h.actor_kind FROM booking_history h JOIN bookings b ON b.id = h.booking_id WHERE b.reference = $1 ORDER BY h.id`,
      [held.body.Booking.Reference],
    );
    expect(rows).toEqual([
      { action: 'confirmed', actor_kind: 'customer' },
      { action: 'rescheduled', actor_kind: 'customer' },
      { action: 'cancelled', actor_kind: 'customer' },
    ]);
  });
});
