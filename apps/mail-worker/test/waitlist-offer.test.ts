// A waitlist offer's e-mail through the mail worker (its own process) to a real SMTP server: the recipient, subject,
// the held time and its end in the account's zone, the claim link under PUBLIC_BASE_URL, the headers; one
// waitlist-notified entry per offer sent (WaitlistID and MultiBookingID), also when its events are published again
// after a crash; none for an offer withdrawn before it left.
import { beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import { formatMailTime } from '@backbone/domain';
import { createTestTimeslot, futureDate, useTestDatabase, useTestRedis } from '@backbone/testkit';
import { addWaitlistEntry, cancelBooking, createBooking, offerFreedPlaces, removeWaitlistEntry } from '@backbone/use-cases';
import type { CaughtMail } from '../src/smtp-catcher.js';
import { createMailOperator, spawnWorker, untilRunning, useQueues, useSmtpCatcher, useWorkers, waitFor, type MailOperator } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const metering = useWorkers(db, redis);
const queues = useQueues(redis);
const { catcher } = useSmtpCatcher();

let operator: MailOperator;
const slug = 'sea-kayak-waitlist';

beforeAll(async () => {
  operator = await createMailOperator(db.pool);
  const saved = await saveBookingPage(db.pool, operator.accountId, { enabled: true, slug });
  if (typeof saved === 'string') throw new Error(saved);
  metering.start();
});

const workerEnv = () => ({
  REDIS_URL: redis.redisUrl,
  QUEUE_PREFIX: redis.prefix,
  SMTP_URL: catcher().url,
  MAIL_FROM: 'bookings@backbone.test',
  MAIL_INTERVAL_MS: '50',
  PUBLIC_BASE_URL: 'https://book.example.test',
  METRICS_PORT: '0',
});

const caughtFor = (to: string): CaughtMail[] => catcher().messages.filter((m) => m.envelope.to.includes(to));

async function meter(name: string): Promise<Array<{ extra_info: string | null }>> {
  const { rows } = await db.pool.query<{ extra_info: string | null }>(`SELECT extra_info FROM usage_entries WHERE account_id = $1 AND meter = $2 ORDER BY id`, [
    operator.accountId,
    name,
  ]);
  return rows;
}

describe('waitlist offer e-mails', () => {
  it('e-mails the offer with its claim link and meters one waitlist-notified entry per offer sent', async () => {
    const date = futureDate(9, 'Europe/Lisbon');
    const slot = await createTestTimeslot(db.pool, operator.activity, { date, time: '09:00', capacity: 2 });
    const { value: taken } = await createBooking(
      { pool: db.pool },
      {
        accountId: operator.accountId,
        apiKeyId: null,
        partnerId: null,
        hold: null,
        channel: 'online',
        activityId: operator.activity.activityId,
        date,
        time: '09:00',
        participants: 2,
        customer: { FirstName: 'Full', LastName: 'Party', Email: 'full@example.com' },
        paymentReference: null,
        answers: undefined,
      },
    );
    const add = (email: string, participants: number) =>
      addWaitlistEntry(
        { pool: db.pool },
        {
          accountId: operator.accountId,
          timeslotId: slot.id,
          entry: { Participants: participants, Customer: { FirstName: 'Inês', LastName: 'Waits', Email: email } },
        },
      );
    const kept = (await add('kept@example.com', 1)).entry;
    const withdrawn = (await add('withdrawn@example.com', 1)).entry;
    await cancelBooking(
      { pool: db.pool },
      { owner: { accountId: operator.accountId, partnerId: null }, reference: taken.Reference },
      { Reason: 'Ill' },
      { kind: 'system' },
    );
    expect((await offerFreedPlaces({ pool: db.pool }, 100)).offered).toBe(2);
    // Staff take one entry off before the worker runs: its offer is withdrawn, its e-mail never leaves.
    await removeWaitlistEntry(
      { pool: db.pool },
      { accountId: operator.accountId, waitlistId: withdrawn.WaitlistID, actor: { kind: 'operator', userId: null, apiKeyId: null } },
    );
    const { rows: offer } = await db.pool.query<{ reference: string; expires_at: Date }>(
      `SELECT b.reference, b.expires_at FROM waitlist_entries w JOIN bookings b ON b.id = w.booking_id WHERE w.id = $1`,
      [kept.WaitlistID],
    );
    const { reference, expires_at: expiresAt } = offer[0]!;

    const worker = spawnWorker(db, workerEnv());
    await untilRunning(worker);
    await waitFor('the offer at the server', async () => caughtFor('kept@example.com').length === 1);
    const [mail] = caughtFor('kept@example.com');
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
      new Date(`${date}T12:00:00Z`),
    );
    expect(mail!.headers.to).toBe('kept@example.com');
    expect(mail!.headers.from).toBe('Sea Kayak Lisboa <bookings@backbone.test>');
    expect(mail!.headers['auto-submitted']).toBe('auto-generated');
    expect(mail!.headers['x-booking-reference']).toBe(reference);
    expect(mail!.headers.subject).toBe(`Places for you: Sunset kayak on ${day} at 09:00`);
    expect(mail!.decoded).toContain('Hello Inês,');
    expect(mail!.decoded).toContain(`Sunset kayak on ${day} at 09:00, 1 participant.`);
    const until = formatMailTime(expiresAt, 'Europe/Lisbon', 'en-GB');
    expect(mail!.decoded).toContain(`We hold them for you until ${until.time} on ${until.date}`);
    const links = mail!.decoded.match(new RegExp(`https://book\\.example\\.test/book/${slug}/claim/[A-Za-z0-9_-]{43}`, 'g'));
    // The plain-text part and the HTML part's href: the same link.
    expect(links).toHaveLength(2);
    expect(new Set(links)).toHaveProperty('size', 1);

    await waitFor('one waitlist-notified entry', async () => (await meter('waitlist-notified')).length === 1);
    expect(JSON.parse((await meter('waitlist-notified'))[0]!.extra_info!)).toEqual({ WaitlistID: String(kept.WaitlistID), MultiBookingID: reference });
    await waitFor('the withdrawn offer set aside', async () => {
      const { rows } = await db.pool.query<{ status: string }>(`SELECT status FROM mail_messages WHERE to_address = 'withdrawn@example.com'`);
      return rows[0]?.status === 'cancelled';
    });
    expect(caughtFor('withdrawn@example.com')).toHaveLength(0);

    // The events published again (a kill after the queue took them, before the stamp): still one entry per offer sent.
    await db.pool.query(`UPDATE mail_messages SET event_published_at = NULL WHERE account_id = $1 AND status = 'sent'`, [operator.accountId]);
    await waitFor('events published again', async () => {
      const { rows } = await db.pool.query(`SELECT 1 FROM mail_messages WHERE account_id = $1 AND status = 'sent' AND event_published_at IS NULL`, [
        operator.accountId,
      ]);
      return rows.length === 0;
    });
    await waitFor('the platform-events queue drained', async () => {
      const counts = await queues.queue().getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0);
    });
    const { rows: sentOffers } = await db.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND kind = 'waitlist-offer' AND status = 'sent'`,
      [operator.accountId],
    );
    expect(sentOffers[0]!.n).toBe(1);
    expect(await meter('waitlist-notified')).toHaveLength(1);
    const { rows: sent } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND status = 'sent'`, [
      operator.accountId,
    ]);
    expect(await meter('workflow-email-sent')).toHaveLength(sent[0]!.n);
  });
});
