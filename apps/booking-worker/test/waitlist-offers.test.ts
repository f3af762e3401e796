// The waitlist offers' pass loop, two of them side by side alongside the hold sweeper, as the booking worker runs them:
// a hold that lapses frees its places and they go, once, to the earliest waiting entry that fits; the places are held
// for it (never more than capacity) and its offer e-mail is written once.
import { describe, expect, it } from 'vitest';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase, waitFor } from '@backbone/testkit';
import { addWaitlistEntry, createBooking } from '@backbone/use-cases';
import { startHoldSweeper } from '../src/hold-sweeper.js';
import { startWaitlistOffers } from '../src/waitlist-offers.js';
import { silentLogger } from './support.js';

const db = useTestDatabase();

describe('waitlist offers', () => {
  it('offers the places of a lapsed hold to the earliest entry that fits, once, with two passes running', async () => {
    const { account } = await createTestAccount(db.pool);
    const activity = await createTestActivity(db.pool, account.id);
    const date = futureDate(4, activity.timeZone);
    const slot = await createTestTimeslot(db.pool, activity, { date, time: '11:00', capacity: 3 });
    const { value: hold } = await createBooking(
      { pool: db.pool },
      {
        accountId: account.id,
        apiKeyId: null,
        partnerId: null,
        hold: { minutes: 15 },
        channel: 'online',
        activityId: activity.activityId,
        date,
        time: '11:00',
        participants: 3,
        customer: {},
        paymentReference: null,
        answers: undefined,
      },
    );
    const add = async (email: string, participants: number) =>
      (
        await addWaitlistEntry(
          { pool: db.pool },
          { accountId: account.id, timeslotId: slot.id, entry: { Participants: participants, Customer: { FirstName: 'W', LastName: 'L', Email: email } } },
        )
      ).entry.WaitlistID;
    const tooLarge = await add('four@example.com', 4);
    const first = await add('two@example.com', 2);
    const second = await add('also-two@example.com', 2);
    await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [hold.Reference]);

    const loops = [
      startHoldSweeper({ pool: db.pool, intervalMs: 20, batchSize: 10, logger: silentLogger }),
      startWaitlistOffers({ pool: db.pool, intervalMs: 20, batchSize: 10, logger: silentLogger }),
      startWaitlistOffers({ pool: db.pool, intervalMs: 20, batchSize: 10, logger: silentLogger }),
    ];
    try {
      const state = async (id: number) => (await db.pool.query<{ state: string }>(`SELECT state FROM waitlist_entries WHERE id = $1`, [id])).rows[0]!.state;
      await waitFor('the first entry that fits offered', async () => (await state(first)) === 'offered');
      // A few more passes: nothing else changes.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([await state(tooLarge), await state(first), await state(second)]).toEqual(['waiting', 'offered', 'waiting']);
      const { rows } = await db.pool.query<{ booked: number; capacity: number }>(`SELECT booked, capacity FROM timeslots WHERE id = $1`, [slot.id]);
      expect(rows[0]).toEqual({ booked: 2, capacity: 3 });
      const mails = await db.pool.query(`SELECT 1 FROM mail_messages WHERE kind = 'waitlist-offer'`);
      expect(mails.rowCount).toBe(1);
    } finally {
      await Promise.all(loops.map((loop) => loop.stop()));
    }
  });
});
