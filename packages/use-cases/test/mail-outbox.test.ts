// The mail outbox is written with the change that causes it: a confirmation and a reminder for a booking made, a change
// e-mail for a move (its old reminder withdrawn, a new one due), a cancellation (reminder withdrawn), nothing for a
// change that rolled back, nothing for partners' customers unless the operator switched that partner on.
import { beforeAll, describe, expect, it } from 'vitest';
import { createPartner, inTransaction, saveMailSettings, DEFAULT_MAIL_SETTINGS, setPartnerCustomerEmails, type Partner } from '@backbone/db';
import type { BookingChannel } from '@backbone/contracts';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import { cancelBooking, changeBooking, changeBookingWithin, confirmBooking, createBooking, updateMailSettings } from '../src/index.js';

const db = useTestDatabase();
const system = { kind: 'system' } as const;
let accountId: string;
let activity: Activity;
let partner: Partner;
const far = futureDate(5, 'UTC');
const later = futureDate(8, 'UTC');

beforeAll(async () => {
  const account = await createTestAccount(db.pool, { timeZone: 'UTC' });
  accountId = account.account.id;
  activity = await createTestActivity(db.pool, accountId, { timeZone: 'UTC' });
  partner = await createPartner(db.pool, accountId, 'Reseller');
  for (const date of [far, later]) await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 50 });
});

async function book(channel: BookingChannel, email: string, date = far, hold: { minutes: number } | null = null, test = false) {
  const { value } = await createBooking(
    { pool: db.pool },
    {
      accountId,
      apiKeyId: null,
      partnerId: channel === 'ota' ? partner.id : null,
      hold,
      test,
      channel,
      activityId: activity.activityId,
      date,
      time: '10:00',
      participants: 2,
      customer: { FirstName: 'Ana', LastName: 'Silva', Email: email },
      paymentReference: null,
      answers: undefined,
    },
  );
  return value.Reference;
}

async function mailsTo(email: string) {
  const { rows } = await db.pool.query<{ kind: string; status: string; due_in_hours: number; dedupe_key: string }>(
    `SELECT kind, status, round(extract(epoch FROM next_attempt_at - now()) / 3600)::int AS due_in_hours, dedupe_key
       FROM mail_messages WHERE account_id = $1 AND to_address = $2 ORDER BY id`,
    [accountId, email],
  );
  return rows;
}

const operatorRef = (reference: string) => ({ owner: { accountId, partnerId: null }, reference });

describe('mail outbox rows', () => {
  it('a booking of the online shop gets its confirmation now and a reminder 24 hours before the start', async () => {
    await book('online', 'online@example.com');
    const mails = await mailsTo('online@example.com');
    expect(mails.map((m) => [m.kind, m.status])).toEqual([
      ['confirmation', 'queued'],
      ['reminder', 'queued'],
    ]);
    expect(mails[0]!.due_in_hours).toBeLessThanOrEqual(0);
    // Five days ahead at 10:00 UTC: the reminder is due four days ahead at 10:00, give or take the hours of today.
    expect(mails[1]!.due_in_hours).toBeGreaterThan(3 * 24);
    expect(mails[1]!.due_in_hours).toBeLessThanOrEqual(4 * 24);
  });

  it("a partner's customer hears nothing until the operator switches that partner on", async () => {
    await book('ota', 'partner-off@example.com');
    expect(await mailsTo('partner-off@example.com')).toEqual([]);
    expect(await setPartnerCustomerEmails(db.pool, accountId, partner.id, true)).toMatchObject({ name: partner.name });
    await book('ota', 'partner-on@example.com');
    expect((await mailsTo('partner-on@example.com')).map((m) => m.kind)).toEqual(['confirmation', 'reminder']);
    // An address no server takes (the APIs refuse it; the use case alone does not) is skipped, and the booking stands.
    const reference = await book('ota', 'not an address');
    expect(reference).toMatch(/./);
    expect(await mailsTo('not an address')).toEqual([]);
    await setPartnerCustomerEmails(db.pool, accountId, partner.id, false);
  });

  it("a partner's sandbox booking (a test key's) writes to nobody, even with that partner switched on", async () => {
    expect(await setPartnerCustomerEmails(db.pool, accountId, partner.id, true)).toMatchObject({ name: partner.name });
    try {
      await book('ota', 'sandbox@example.com', far, null, true);
      await book('online', 'sandbox-online@example.com', far, null, true);
      expect(await mailsTo('sandbox@example.com')).toEqual([]);
      expect(await mailsTo('sandbox-online@example.com')).toEqual([]);
      await book('ota', 'live@example.com');
      expect((await mailsTo('live@example.com')).map((m) => m.kind)).toEqual(['confirmation', 'reminder']);
    } finally {
      await setPartnerCustomerEmails(db.pool, accountId, partner.id, false);
    }
  });

  it('the point of sale can be switched off per account', async () => {
    await saveMailSettings(db.pool, accountId, { ...DEFAULT_MAIL_SETTINGS, posEnabled: false });
    await book('pos', 'pos-off@example.com');
    expect(await mailsTo('pos-off@example.com')).toEqual([]);
    await saveMailSettings(db.pool, accountId, DEFAULT_MAIL_SETTINGS);
  });

  it('a move sends a change e-mail, withdraws the old reminder and queues one for the new start', async () => {
    const reference = await book('online', 'mover@example.com');
    await changeBooking({ pool: db.pool }, operatorRef(reference), { move: { date: later, time: '10:00' } }, system);
    const mails = await mailsTo('mover@example.com');
    expect(mails.map((m) => [m.kind, m.status])).toEqual([
      ['confirmation', 'queued'],
      ['reminder', 'cancelled'],
      ['change', 'queued'],
      ['reminder', 'queued'],
    ]);
    expect(mails[3]!.due_in_hours).toBeGreaterThan(mails[1]!.due_in_hours);
  });

  it('a note alone tells the customer nothing; a new e-mail address is written to', async () => {
    const reference = await book('online', 'noted@example.com');
    await changeBooking({ pool: db.pool }, operatorRef(reference), { note: 'Vegetarian lunch' }, system);
    expect((await mailsTo('noted@example.com')).map((m) => m.kind)).toEqual(['confirmation', 'reminder']);
    await changeBooking({ pool: db.pool }, operatorRef(reference), { customer: { Email: 'renamed@example.com' } }, system);
    expect((await mailsTo('renamed@example.com')).map((m) => m.kind)).toEqual(['change']);
  });

  it('a cancellation sends its e-mail once and withdraws the reminder', async () => {
    const reference = await book('online', 'canceller@example.com');
    await cancelBooking({ pool: db.pool }, operatorRef(reference), { Reason: 'Storm warning' }, system);
    await cancelBooking({ pool: db.pool }, operatorRef(reference), { Reason: 'Storm warning' }, system);
    expect((await mailsTo('canceller@example.com')).map((m) => [m.kind, m.status])).toEqual([
      ['confirmation', 'queued'],
      ['reminder', 'cancelled'],
      ['cancellation', 'queued'],
    ]);
  });

  it('a change that rolled back leaves no e-mail', async () => {
    const reference = await book('online', 'rolled-back@example.com');
    await expect(
      inTransaction(db.pool, async (tx) => {
        await changeBookingWithin(tx, operatorRef(reference), { participants: 3 }, system);
        throw new Error('rolled back after the change');
      }),
    ).rejects.toThrow('rolled back after the change');
    expect((await mailsTo('rolled-back@example.com')).map((m) => m.kind)).toEqual(['confirmation', 'reminder']);
  });

  it('a booking made inside the reminder lead gets its confirmation and no reminder', async () => {
    await saveMailSettings(db.pool, accountId, { ...DEFAULT_MAIL_SETTINGS, reminderHours: 24 * 6 });
    await book('online', 'soon@example.com');
    expect((await mailsTo('soon@example.com')).map((m) => m.kind)).toEqual(['confirmation']);
    await saveMailSettings(db.pool, accountId, DEFAULT_MAIL_SETTINGS);
  });

  it("an owner's new reminder lead moves the queued reminders, and 0 withdraws them", async () => {
    await book('online', 'lead@example.com');
    const before = (await mailsTo('lead@example.com'))[1]!;
    await updateMailSettings({ pool: db.pool }, accountId, { ReminderHours: 48 }, { kind: 'cli' });
    const moved = (await mailsTo('lead@example.com'))[1]!;
    expect(moved).toMatchObject({ kind: 'reminder', status: 'queued' });
    expect(before.due_in_hours - moved.due_in_hours).toBe(24);
    await updateMailSettings({ pool: db.pool }, accountId, { ReminderHours: 0 }, { kind: 'cli' });
    expect((await mailsTo('lead@example.com'))[1]).toMatchObject({ kind: 'reminder', status: 'cancelled' });
    await saveMailSettings(db.pool, accountId, DEFAULT_MAIL_SETTINGS);
  });

  it('a hold tells the customer nothing until it is confirmed; a hold let go tells nothing at all', async () => {
    const held = await book('online', 'held@example.com', far, { minutes: 15 });
    expect(await mailsTo('held@example.com')).toEqual([]);
    await confirmBooking({ pool: db.pool }, operatorRef(held), {}, system);
    await confirmBooking({ pool: db.pool }, operatorRef(held), {}, system);
    expect((await mailsTo('held@example.com')).map((m) => m.kind)).toEqual(['confirmation', 'reminder']);
    const dropped = await book('online', 'dropped@example.com', far, { minutes: 15 });
    await cancelBooking({ pool: db.pool }, operatorRef(dropped), {}, system);
    expect(await mailsTo('dropped@example.com')).toEqual([]);
  });
});
