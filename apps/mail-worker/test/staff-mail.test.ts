// Staff e-mails (an invitation, a password reset) through the real worker process and a real SMTP server: sent whatever
// the account's customer e-mail settings say, from the account's name without its customers' reply-to, with a link to
// the console whose token exists only in the message (the stored copy has the mark, the database the hash), and never
// metered: the booking e-mail sent beside them is the account's one workflow-email-sent entry.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_SETTINGS, saveMailSettings } from '@backbone/db';
import { useTestDatabase, useTestRedis } from '@backbone/testkit';
import { inviteOperatorUser } from '@backbone/use-cases';
import type { CaughtMail } from '../src/smtp-catcher.js';
import {
  bookOnline,
  createMailOperator,
  mailRows,
  meteredEmails,
  spawnWorker,
  untilRunning,
  useSmtpCatcher,
  useWorkers,
  waitFor,
  type MailOperator,
} from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const metering = useWorkers(db, redis);
const { catcher } = useSmtpCatcher();

let operator: MailOperator;

beforeAll(async () => {
  operator = await createMailOperator(db.pool);
  // The customers' e-mails of the online shop off, and a reply-to for them: neither concerns the staff.
  await saveMailSettings(db.pool, operator.accountId, { ...DEFAULT_MAIL_SETTINGS, onlineEnabled: false, replyTo: 'desk@seakayak.example' });
  metering.start();
});

const caughtFor = (to: string): CaughtMail[] => catcher().messages.filter((m) => m.envelope.to.includes(to));

describe('staff e-mails', () => {
  it('sends an invitation whatever the customer settings, with a link of its own, and never meters it', async () => {
    await saveMailSettings(db.pool, operator.accountId, { ...DEFAULT_MAIL_SETTINGS, replyTo: 'desk@seakayak.example' });
    await bookOnline(db.pool, operator, 'ana@example.com');
    await saveMailSettings(db.pool, operator.accountId, { ...DEFAULT_MAIL_SETTINGS, onlineEnabled: false, replyTo: 'desk@seakayak.example' });
    await inviteOperatorUser(
      { pool: db.pool },
      { accountId: operator.accountId, email: 'guide@example.com', name: 'Rui <Guide>', role: 'staff', invitedBy: 'owner@example.com', actor: { kind: 'cli' } },
    );
    const worker = spawnWorker(db, {
      REDIS_URL: redis.redisUrl,
      QUEUE_PREFIX: redis.prefix,
      SMTP_URL: catcher().url,
      MAIL_FROM: 'bookings@backbone.test',
      MAIL_INTERVAL_MS: '50',
      METRICS_PORT: '0',
      PUBLIC_BASE_URL: 'https://console.example.com/',
    });
    await untilRunning(worker);
    await waitFor(
      'the invitation and the confirmation at the server',
      async () => caughtFor('guide@example.com').length === 1 && caughtFor('ana@example.com').length === 1,
    );
    const [mail] = caughtFor('guide@example.com');
    expect(mail!.headers.from).toBe('Sea Kayak Lisboa <bookings@backbone.test>');
    expect(mail!.headers['reply-to']).toBeUndefined();
    expect(mail!.headers.subject).toBe('You are invited to the console of Sea Kayak Lisboa');
    expect(mail!.decoded).toContain('owner@example.com invited you to the operator console of Sea Kayak Lisboa as a member of staff.');
    // The name is escaped in the HTML part.
    expect(mail!.decoded).toContain('<p>Hello Rui &lt;Guide&gt;,</p>');
    const token = mail!.decoded.match(/https:\/\/console\.example\.com\/console\/invitation#([A-Za-z0-9_-]{43})/)?.[1];
    expect(token).toBeDefined();
    const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM operator_link_tokens WHERE token_hash = $1`, [
      createHash('sha256').update(token!).digest(),
    ]);
    expect(rows[0]!.n).toBe(1);

    await waitFor('the confirmation metered', async () => (await meteredEmails(db.pool, operator.accountId)) === 1);
    const [invitation] = await mailRows(db.pool, operator.accountId, 'guide@example.com');
    expect(invitation).toMatchObject({ kind: 'invitation', status: 'sent' });
    expect(invitation!.event_published_at).not.toBeNull();
    // Time for a wrong second entry to arrive, had the invitation published one.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await meteredEmails(db.pool, operator.accountId)).toBe(1);
  });
});
