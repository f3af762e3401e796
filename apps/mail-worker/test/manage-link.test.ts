// The manage link in the customer's e-mails, through the real worker process and a real SMTP server: every e-mail of
// an online or point-of-sale booking links to the booking page's manage page with a token of its own, which the shop
// API opens on that booking alone; a partner's booking, or an account whose page is off, gets no link; the database
// keeps only the token's hash (the stored copy of the message has a mark in its place).
import { createHash } from 'node:crypto';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey, saveBookingPage, setPartnerCustomerEmails } from '@backbone/db';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { request, useTestDatabase, useTestRedis, useTestServer } from '@backbone/testkit';
import { cancelBooking, createBooking } from '@backbone/use-cases';
import type { CaughtMail } from '../src/smtp-catcher.js';
import { bookOnline, createMailOperator, mailRows, spawnWorker, untilRunning, useSmtpCatcher, waitFor, type MailOperator } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const { catcher } = useSmtpCatcher();
const shopServer = useTestServer(() => createTestPartnerApp(db.pool));

let operator: MailOperator;
let pageOff: MailOperator;
const SLUG = 'lisbon-kayaks';

beforeAll(async () => {
  operator = await createMailOperator(db.pool);
  const saved = await saveBookingPage(db.pool, operator.accountId, { enabled: true, slug: SLUG });
  if (typeof saved === 'string') throw new Error(saved);
  pageOff = await createMailOperator(db.pool);
  await saveBookingPage(db.pool, pageOff.accountId, { enabled: false, slug: 'closed-kayaks' });
});

// The processes of a test are killed after it.
beforeEach(async () => {
  const worker = spawnWorker(db, {
    REDIS_URL: redis.redisUrl,
    QUEUE_PREFIX: redis.prefix,
    SMTP_URL: catcher().url,
    MAIL_FROM: 'bookings@backbone.test',
    MAIL_INTERVAL_MS: '50',
    METRICS_PORT: '0',
    PUBLIC_BASE_URL: `${shopServer.url}/`,
  });
  await untilRunning(worker);
});

const caughtFor = (to: string): CaughtMail[] => catcher().messages.filter((m) => m.envelope.to.includes(to));

async function mailsTo(to: string, count: number): Promise<CaughtMail[]> {
  await waitFor(`${count} e-mail(s) to ${to}`, async () => caughtFor(to).length >= count);
  return caughtFor(to);
}

/** The manage links of a message (its text and HTML parts), each with its token. */
function manageLinks(mail: CaughtMail): Array<{ link: string; token: string }> {
  const pattern = /(https?:\/\/[^\s"<>]+\/book\/([a-z0-9-]+)\/manage\/([A-Za-z0-9_-]+))/g;
  return [...mail.decoded.matchAll(pattern)].map((m) => ({ link: m[1]!, token: m[3]! }));
}

const shopBooking = (token: string) => request(shopServer.url, 'GET', `/api/v2/shop/${SLUG}/bookings/${token}`);

async function bookAtCounter(op: MailOperator, email: string): Promise<string> {
  const { value } = await createBooking(
    { pool: db.pool },
    {
      accountId: op.accountId,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel: 'pos',
      activityId: op.activity.activityId,
      date: op.date,
      time: '18:30',
      participants: 1,
      customer: { FirstName: 'Rui', LastName: 'Costa', Email: email },
      paymentReference: null,
      answers: undefined,
    },
  );
  return value.Reference;
}

describe('the manage link in e-mails', () => {
  it("opens the e-mail's own booking on the booking page's API, and no other", async () => {
    const first = await bookOnline(db.pool, operator, 'ines@example.com', 'Ines');
    const second = await bookOnline(db.pool, operator, 'joana@example.com', 'Joana');
    const [toFirst] = await mailsTo('ines@example.com', 1);
    const [toSecond] = await mailsTo('joana@example.com', 1);

    const links = manageLinks(toFirst!);
    // The text part and the HTML part carry the same link, at the service's base (its trailing slash dropped).
    expect(links.length).toBeGreaterThanOrEqual(2);
    expect(new Set(links.map((l) => l.link)).size).toBe(1);
    expect(links[0]!.link).toMatch(new RegExp(`^${shopServer.url}/book/${SLUG}/manage/[A-Za-z0-9_-]{43}$`));
    const opened = await shopBooking(links[0]!.token);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ Reference: first, Customer: { FirstName: 'Ines' } });

    const other = manageLinks(toSecond!)[0]!;
    expect(other.token).not.toBe(links[0]!.token);
    const openedOther = await shopBooking(other.token);
    expect(openedOther.body).toMatchObject({ Reference: second, Customer: { FirstName: 'Joana' } });
    expect(JSON.stringify(openedOther.body)).not.toContain('Ines');

    // The page of another account does not know the token.
    const elsewhere = await request(shopServer.url, 'GET', `/api/v2/shop/closed-kayaks/bookings/${links[0]!.token}`);
    expect(elsewhere.status).toBe(404);
  });

  it('keeps only the hash of the token: the stored copy has a mark where the token was', async () => {
    await bookOnline(db.pool, operator, 'hash@example.com');
    const [mail] = await mailsTo('hash@example.com', 1);
    const { token } = manageLinks(mail!)[0]!;
    await waitFor('the send recorded', async () => (await mailRows(db.pool, operator.accountId, 'hash@example.com'))[0]?.status === 'sent');
    const { rows } = await db.pool.query<{ text_body: string; html_body: string }>(
      `SELECT text_body, html_body FROM mail_messages WHERE account_id = $1 AND to_address = 'hash@example.com' AND kind = 'confirmation'`,
      [operator.accountId],
    );
    expect(rows[0]!.text_body).toContain(`/book/${SLUG}/manage/{manage-token}`);
    expect(rows[0]!.text_body + rows[0]!.html_body).not.toContain(token);
    const hash = createHash('sha256').update(token).digest();
    const stored = await db.pool.query(`SELECT 1 FROM booking_tokens WHERE token_hash = $1 AND client_address IS NULL`, [hash]);
    expect(stored.rowCount).toBe(1);
  });

  it('a point-of-sale booking gets the link too, in each of its e-mails, each with a token of its own', async () => {
    const reference = await bookAtCounter(operator, 'rui@example.com');
    const [confirmation] = await mailsTo('rui@example.com', 1);
    const first = manageLinks(confirmation!)[0]!;
    expect((await shopBooking(first.token)).body).toMatchObject({ Reference: reference, Status: 'confirmed' });

    await cancelBooking(
      { pool: db.pool },
      { owner: { accountId: operator.accountId, partnerId: null }, reference },
      { Reason: 'Storm' },
      { kind: 'system' },
      null,
    );
    const [, cancellation] = await mailsTo('rui@example.com', 2);
    const second = manageLinks(cancellation!)[0]!;
    expect(second.token).not.toBe(first.token);
    expect((await shopBooking(second.token)).body).toMatchObject({ Reference: reference, Status: 'cancelled' });
    // The first e-mail's link still opens the booking.
    expect((await shopBooking(first.token)).body).toMatchObject({ Reference: reference, Status: 'cancelled' });
  });

  it("no link for a partner's booking, nor when the account's booking page is off", async () => {
    const key = await createApiKey(db.pool, operator.accountId, { name: 'Reseller', scopes: ['ota'] });
    await setPartnerCustomerEmails(db.pool, operator.accountId, key.partnerId!, true);
    await createBooking(
      { pool: db.pool },
      {
        accountId: operator.accountId,
        apiKeyId: key.id,
        partnerId: key.partnerId,
        hold: null,
        channel: 'ota',
        activityId: operator.activity.activityId,
        date: operator.date,
        time: '18:30',
        participants: 1,
        customer: { FirstName: 'Pia', LastName: 'Berg', Email: 'pia@example.com' },
        paymentReference: null,
        answers: undefined,
      },
    );
    await bookOnline(db.pool, pageOff, 'off@example.com');
    for (const to of ['pia@example.com', 'off@example.com']) {
      const [mail] = await mailsTo(to, 1);
      expect(mail!.decoded).toContain('is confirmed');
      expect(mail!.decoded).not.toContain('/manage/');
      expect(mail!.decoded).not.toContain('See or change your booking');
    }
  });
});
