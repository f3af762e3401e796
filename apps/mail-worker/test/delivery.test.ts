// The mail worker against a real SMTP server: the message a customer gets (recipient, subject, times in the account's
// zone, headers), one metered workflow-email-sent entry per message, temporary and permanent failures, and exactly one
// metered entry when the worker is killed after the server took a message and before it recorded the send.
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_SETTINGS, saveMailSettings } from '@backbone/db';
import { useTestDatabase, useTestRedis } from '@backbone/testkit';
import type { CaughtMail } from '../src/smtp-catcher.js';
import {
  bookOnline,
  createMailOperator,
  mailRows,
  meteredEmails,
  spawnWorker,
  untilRunning,
  useSmtpCatcher,
  useQueues,
  useWorkers,
  waitFor,
  type MailOperator,
} from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const metering = useWorkers(db, redis);
const queues = useQueues(redis);

/** Set by the kill test: the next message to this recipient waits here before the server answers. */
let held: { to: string; reached: () => void; release: Promise<void> } | null = null;
const { catcher } = useSmtpCatcher({
  refuse: (to) =>
    to.startsWith('later') ? { code: 451, message: '4.3.0 Try again later' } : to.startsWith('never') ? { code: 550, message: '5.1.1 No such user' } : null,
  beforeReply: async (mail) => {
    if (held && mail.envelope.to.includes(held.to)) {
      held.reached();
      await held.release;
    }
  },
});

const workerEnv = () => ({
  REDIS_URL: redis.redisUrl,
  QUEUE_PREFIX: redis.prefix,
  SMTP_URL: catcher().url,
  MAIL_FROM: 'bookings@backbone.test',
  MAIL_INTERVAL_MS: '50',
  MAIL_RETRY_BASE_MS: '600000',
  METRICS_PORT: '0',
});

let operator: MailOperator;

beforeAll(async () => {
  operator = await createMailOperator(db.pool);
  await saveMailSettings(db.pool, operator.accountId, { ...DEFAULT_MAIL_SETTINGS, senderName: 'Sea Kayak Lisboa', replyTo: 'desk@seakayak.example' });
  metering.start();
});

const caughtFor = (to: string): CaughtMail[] => catcher().messages.filter((m) => m.envelope.to.includes(to));

describe('mail worker', () => {
  it("sends the confirmation with the booking's details in the account's zone, and meters it once", async () => {
    const reference = await bookOnline(db.pool, operator, 'ana@example.com');
    const worker = spawnWorker(db, workerEnv());
    await untilRunning(worker);
    await waitFor('the confirmation at the server', async () => caughtFor('ana@example.com').length === 1);
    const [mail] = caughtFor('ana@example.com');
    expect(mail!.envelope.from).toBe('bookings@backbone.test');
    expect(mail!.headers.from).toBe('Sea Kayak Lisboa <bookings@backbone.test>');
    expect(mail!.headers['reply-to']).toBe('desk@seakayak.example');
    expect(mail!.headers.to).toBe('ana@example.com');
    expect(mail!.headers['auto-submitted']).toBe('auto-generated');
    expect(mail!.headers['x-booking-reference']).toBe(reference);
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(
      new Date(`${operator.date}T12:00:00Z`),
    );
    expect(mail!.headers.subject).toBe(`Your booking ${reference} is confirmed: Sunset kayak on ${day}`);
    // 18:30 in Lisbon, as the customer reads it, in both parts.
    expect(mail!.decoded).toContain(`Booking ${reference}: Sunset kayak on ${day} at 18:30, 2 participants.`);
    expect(mail!.decoded).toContain('<p>Hello Ana,</p>');
    await waitFor('the sent row with its event published', async () => {
      const [row] = await mailRows(db.pool, operator.accountId, 'ana@example.com');
      return row?.status === 'sent' && row.event_published_at !== null;
    });
    await waitFor('one workflow-email-sent entry', async () => (await meteredEmails(db.pool, operator.accountId)) === 1);
    // The reminder is not due for days: nothing else went.
    expect(caughtFor('ana@example.com')).toHaveLength(1);
  });

  it('a temporary refusal (4xx) is retried later; a day of them, or one permanent refusal (5xx), marks it failed', async () => {
    await bookOnline(db.pool, operator, 'later@example.com');
    await bookOnline(db.pool, operator, 'never@example.com');
    const worker = spawnWorker(db, workerEnv());
    await untilRunning(worker);
    await waitFor('both tried', async () => {
      const rows = [
        ...(await mailRows(db.pool, operator.accountId, 'later@example.com')),
        ...(await mailRows(db.pool, operator.accountId, 'never@example.com')),
      ];
      return rows.every((row) => row.attempts === 1);
    });
    const [later] = await mailRows(db.pool, operator.accountId, 'later@example.com');
    expect(later).toMatchObject({ status: 'queued', attempts: 1 });
    expect(later!.last_error).toContain('451');
    const [never] = await mailRows(db.pool, operator.accountId, 'never@example.com');
    expect(never).toMatchObject({ status: 'failed', attempts: 1 });
    expect(never!.last_error).toContain('550');
    // A day after the first failure, the next temporary refusal is the last.
    await db.pool.query(`UPDATE mail_messages SET first_failure_at = now() - interval '25 hours', next_attempt_at = now() WHERE id = $1`, [later!.id]);
    await waitFor('the retry', async () => (await mailRows(db.pool, operator.accountId, 'later@example.com'))[0]!.attempts === 2);
    expect((await mailRows(db.pool, operator.accountId, 'later@example.com'))[0]).toMatchObject({ status: 'failed', attempts: 2 });
    expect(await meteredEmails(db.pool, operator.accountId)).toBe(1);
  });

  it('a worker killed after the server took a message and before it recorded the send: sent again, metered once', async () => {
    let reached!: () => void;
    const atServer = new Promise<void>((resolve) => (reached = resolve));
    let release!: () => void;
    held = { to: 'killed@example.com', reached, release: new Promise<void>((resolve) => (release = resolve)) };
    await bookOnline(db.pool, operator, 'killed@example.com');
    const first = spawnWorker(db, workerEnv());
    await untilRunning(first);
    await atServer;
    first.child.kill('SIGKILL');
    await first.exited;
    held = null;
    release();
    expect((await mailRows(db.pool, operator.accountId, 'killed@example.com'))[0]).toMatchObject({ status: 'queued', attempts: 0 });

    const second = spawnWorker(db, workerEnv());
    await untilRunning(second);
    await waitFor('the resend recorded and its event published', async () => {
      const [row] = await mailRows(db.pool, operator.accountId, 'killed@example.com');
      return row?.status === 'sent' && row.event_published_at !== null;
    });
    expect(caughtFor('killed@example.com')).toHaveLength(2);
    await waitFor('two entries: ana and killed', async () => (await meteredEmails(db.pool, operator.accountId)) === 2);

    // A kill after the queue took the event and before the stamp: the event goes again, and still meters once.
    await db.pool.query(`UPDATE mail_messages SET event_published_at = NULL WHERE account_id = $1 AND status = 'sent'`, [operator.accountId]);
    await waitFor('events published again', async () => {
      const { rows } = await db.pool.query(`SELECT 1 FROM mail_messages WHERE account_id = $1 AND status = 'sent' AND event_published_at IS NULL`, [
        operator.accountId,
      ]);
      return rows.length === 0;
    });
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND status = 'sent'`, [
      operator.accountId,
    ]);
    expect(rows[0]!.n).toBe(2);
    // The metering worker has had the republished jobs: its dedupe keeps the count at the messages sent.
    await waitFor('the platform-events queue drained', async () => {
      const counts = await queues.queue().getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      return Object.values(counts).every((n) => n === 0);
    });
    expect(await meteredEmails(db.pool, operator.accountId)).toBe(rows[0]!.n);
  });

  it('two workers on a burst of due reminders: each sent exactly once, the meter equal to the messages sent', async () => {
    const emails = Array.from({ length: 60 }, (_, i) => `reminded-${i}@example.com`);
    for (const email of emails) await bookOnline(db.pool, operator, email);
    // Only the reminders are under test: the confirmations are set aside and the reminders made due now.
    await db.pool.query(`UPDATE mail_messages SET status = 'cancelled' WHERE account_id = $1 AND kind = 'confirmation' AND to_address LIKE 'reminded-%'`, [
      operator.accountId,
    ]);
    await db.pool.query(`UPDATE mail_messages SET next_attempt_at = now() WHERE account_id = $1 AND kind = 'reminder' AND to_address LIKE 'reminded-%'`, [
      operator.accountId,
    ]);
    const workers = [spawnWorker(db, { ...workerEnv(), MAIL_BATCH_SIZE: '5' }), spawnWorker(db, { ...workerEnv(), MAIL_BATCH_SIZE: '5' })];
    await Promise.all(workers.map((worker) => untilRunning(worker)));
    await waitFor('every reminder sent and its event published', async () => {
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND kind = 'reminder' AND status = 'sent' AND event_published_at IS NOT NULL`,
        [operator.accountId],
      );
      return rows[0]!.n === emails.length;
    });
    for (const email of emails) expect(caughtFor(email), email).toHaveLength(1);
    expect(caughtFor(emails[0]!)[0]!.headers.subject).toMatch(/^Reminder: Sunset kayak on /);
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_messages WHERE account_id = $1 AND status = 'sent'`, [
      operator.accountId,
    ]);
    await waitFor('one entry per message sent', async () => (await meteredEmails(db.pool, operator.accountId)) === rows[0]!.n);
  });
});
