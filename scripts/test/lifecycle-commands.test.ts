// The admin CLI's partner and lifecycle commands against a real database: partners and their keys, the operator's
// cancel (any time, past the activity's cutoff too, idempotent) and bookings listed with status and partner.
import { describe, expect, it } from 'vitest';
import { createBookingStore, findActiveApiKey } from '@backbone/db';
import { reserveBooking } from '@backbone/domain';
import { futureDate, useTestDatabase } from '@backbone/testkit';
import { partnerCommands } from '../admin/partner.commands.js';

const db = useTestDatabase();
// Commands return plain JSON-able objects; tests read their members freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const run = async (command: string, options: Record<string, string | boolean>): Promise<any> => {
  const result = await partnerCommands[command]!.run(options, { pool: db.pool, redisUrl: 'redis://unused', queuePrefix: 'unused' });
  return JSON.parse(JSON.stringify(result));
};

async function operatorWithSlot(name: string) {
  const account = await run('create-account', { name, 'time-zone': 'Europe/Berlin' });
  const activity = await run('create-activity', {
    account: account.ID,
    name: 'Kayak',
    duration: '60',
    price: '3000',
    currency: 'EUR',
    'max-participants': '6',
  });
  const date = futureDate(4);
  await run('generate-timeslots', {
    account: account.ID,
    activity: activity.ActivityID,
    from: date,
    to: date,
    days: 'mon,tue,wed,thu,fri,sat,sun',
    times: '10:00',
    capacity: '10',
  });
  return { account, activity, date };
}

describe('admin CLI: partners and the booking lifecycle', () => {
  it('creates and lists partners; names are unique per account regardless of case', async () => {
    const { account } = await operatorWithSlot('Partners');
    const viator = await run('create-partner', { account: account.ID, name: 'Viator' });
    expect(viator).toEqual({ ID: expect.any(String), AccountID: account.ID, Name: 'Viator', CreatedAt: expect.any(String) });
    await run('create-partner', { account: account.ID, name: 'GetYourGuide' });
    await expect(run('create-partner', { account: account.ID, name: 'viator' })).rejects.toThrow(/already has a partner named/);
    await expect(run('create-partner', { account: account.ID, name: '   ' })).rejects.toThrow(/--name/);
    expect(await run('list-partners', { account: account.ID })).toEqual([
      { ID: expect.any(String), Name: 'GetYourGuide', ActiveKeys: 0, CreatedAt: expect.any(String) },
      { ID: viator.ID, Name: 'Viator', ActiveKeys: 0, CreatedAt: expect.any(String) },
    ]);
  });

  it('create-key --partner joins the partner by id or name; an ota key without it gets a partner of its own', async () => {
    const { account } = await operatorWithSlot('Keys');
    const partner = await run('create-partner', { account: account.ID, name: 'Klook' });
    const byName = await run('create-key', { account: account.ID, name: 'klook-1', scopes: 'ota', partner: 'klook' });
    const byId = await run('create-key', { account: account.ID, name: 'klook-2', scopes: 'ota', partner: partner.ID });
    expect(byName.PartnerID).toBe(partner.ID);
    expect(byId.PartnerID).toBe(partner.ID);
    expect((await findActiveApiKey(db.pool, byName.Secret))?.partnerId).toBe(partner.ID);
    const own = await run('create-key', { account: account.ID, name: 'solo', scopes: 'ota' });
    expect(own.PartnerID).not.toBe(partner.ID);
    const partners = await run('list-partners', { account: account.ID });
    expect(partners.map((p: { Name: string; ActiveKeys: number }) => [p.Name, p.ActiveKeys])).toEqual([
      ['Klook', 2],
      ['solo', 1],
    ]);
    await expect(run('create-key', { account: account.ID, name: 'x', scopes: 'ota', partner: 'Nobody' })).rejects.toThrow(/no partner 'Nobody'/);
    await expect(run('create-key', { account: account.ID, name: 'x', scopes: 'usage:read', partner: 'Klook' })).rejects.toThrow(
      /only for keys with the ota scope/,
    );
    const other = await run('create-account', { name: 'Other' });
    await expect(run('create-key', { account: other.ID, name: 'x', scopes: 'ota', partner: partner.ID })).rejects.toThrow(/no partner/);
  });

  it('cancel-booking cancels as the operator past the cutoff, once; list-bookings shows status and partner', async () => {
    const { account, activity, date } = await operatorWithSlot('Cancels');
    const partner = await run('create-partner', { account: account.ID, name: 'Tiqets' });
    const book = (partnerId: string | null, hold: boolean) =>
      reserveBooking(createBookingStore(db.pool), {
        accountId: account.ID,
        apiKeyId: null,
        partnerId,
        hold: hold ? { minutes: 15 } : null,
        channel: partnerId ? 'ota' : 'pos',
        activityId: activity.ActivityID,
        date,
        time: '10:00',
        participants: 2,
        customer: { FirstName: 'Ana', LastName: 'Lima', Email: 'ana@example.com' },
        paymentReference: null,
        answers: undefined,
      });
    const ota = await book(partner.ID, false);
    const held = await book(partner.ID, true);
    const pos = await book(null, false);
    // Cancellations close 24 hours before the start, which is within the hour: a partner could no longer cancel.
    await db.pool.query(`UPDATE activities SET cancellation_cutoff_minutes = 1440 WHERE activity_id = $1`, [activity.ActivityID]);
    await db.pool.query(`UPDATE timeslots t SET starts_at = now() + interval '1 hour' FROM activities a WHERE a.id = t.activity_id AND a.activity_id = $1`, [
      activity.ActivityID,
    ]);

    const cancelled = await run('cancel-booking', { account: account.ID, reference: ota.Reference.toLowerCase(), reason: 'Storm warning' });
    expect(cancelled).toMatchObject({ Reference: ota.Reference, Status: 'cancelled', CancellationReason: 'Storm warning', CancelledAt: expect.any(String) });
    expect(await run('cancel-booking', { account: account.ID, reference: ota.Reference })).toEqual(cancelled);
    expect((await run('cancel-booking', { account: account.ID, reference: pos.Reference })).Status).toBe('cancelled');
    const { rows } = await db.pool.query<{ booked: number; events: number }>(
      `SELECT (SELECT sum(booked) FROM timeslots t JOIN activities a ON a.id = t.activity_id WHERE a.activity_id = $1)::int AS booked,
              (SELECT count(*) FROM outbox_events WHERE type = 'booking.cancelled' AND payload->>'Reference' = $2)::int AS events`,
      [activity.ActivityID, ota.Reference],
    );
    expect(rows[0]).toEqual({ booked: 2, events: 1 });

    const listed = await run('list-bookings', { account: account.ID });
    const byReference = Object.fromEntries(listed.map((b: { Reference: string }) => [b.Reference, b]));
    expect(byReference[ota.Reference]).toMatchObject({
      Status: 'cancelled',
      PartnerID: partner.ID,
      PartnerName: 'Tiqets',
      CancellationReason: 'Storm warning',
    });
    expect(byReference[held.Reference]).toMatchObject({ Status: 'on_hold', PartnerID: partner.ID, PartnerName: 'Tiqets', ExpiresAt: expect.any(String) });
    expect(byReference[pos.Reference]).toMatchObject({ Status: 'cancelled', PartnerID: null, PartnerName: null });

    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [held.Reference]);
    const relisted = await run('list-bookings', { account: account.ID });
    expect(relisted.find((b: { Reference: string }) => b.Reference === held.Reference).Status).toBe('expired');
    await expect(run('cancel-booking', { account: account.ID, reference: held.Reference })).rejects.toThrow(/expired/);
  });

  it("refuses bad references and reasons, and other accounts' bookings", async () => {
    const { account } = await operatorWithSlot('Refusals');
    await expect(run('cancel-booking', { account: account.ID, reference: 'nope' })).rejects.toThrow(/--reference must be a booking reference/);
    await expect(run('cancel-booking', { account: account.ID, reference: '2222-2222', reason: 'r'.repeat(501) })).rejects.toThrow(/--reason/);
    await expect(run('cancel-booking', { account: account.ID, reference: '2222-2222' })).rejects.toThrow(/not found|no booking|Booking/i);
  });
});
