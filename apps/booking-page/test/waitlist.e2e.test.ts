// The waitlist on the booking page over the real partner API and database, in headless Chromium at 390 and 1280 px:
// a full time offers "Join the waitlist", the customer joins with long real-world names; places free up, the booking
// worker's pass (offerFreedPlaces) holds them and writes the offer e-mail, the mail worker's delivery sends it to a
// real SMTP server, and the claim link in the message received opens the page on the held places with the customer's
// details filled in: Book claims them. Screenshots under test/screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestAccount, createTestActivity, createTestTimeslot, futureDate, useTestDatabase, useTestServer } from '@backbone/testkit';
import { createLogger } from '@backbone/logging';
import { createSmtpSender, deliverDueMail } from '@backbone/mail-worker';
import { startSmtpCatcher, type SmtpCatcher } from '@backbone/mail-worker/smtp-catcher';
import type { EventPublisher } from '@backbone/publisher';
import { cancelBooking, createBooking, offerFreedPlaces } from '@backbone/use-cases';
import { layoutProblems } from './layout.js';
import { buildBookingPage, screenshot, useBrowser, type Width } from './support.js';

/**
 * The claim links of the offer e-mails to `to`, as the customer gets them: the mail worker's delivery (its own code,
 * in this process) sends the due messages to a real SMTP server, and the link is read from the message received.
 */
async function claimLinks(to: string): Promise<Array<{ path: string; reference: string }>> {
  const sender = createSmtpSender(catcher!.url, 1);
  await deliverDueMail({
    pool: db.pool,
    sender,
    publisher: noEvents,
    from: 'bookings@backbone.test',
    publicBaseUrl: server.url,
    batchSize: 50,
    retryBaseMs: 1_000,
    giveUpAfterMs: 60_000,
    logger: createLogger({ level: 'silent', name: 'mail-worker' }),
  });
  sender.close();
  const { rows } = await db.pool.query<{ reference: string }>(
    `SELECT data->>'MultiBookingID' AS reference FROM mail_messages WHERE kind = 'waitlist-offer' AND to_address = $1 ORDER BY id`,
    [to],
  );
  const links = catcher!.messages
    .filter((m) => m.envelope.to.includes(to))
    .map((m) => m.decoded.match(/https?:\/\/[^\s"<>]+\/claim\/[A-Za-z0-9_-]{43}/)?.[0])
    .filter((link): link is string => link !== undefined);
  return links.map((link, i) => ({ path: new URL(link).pathname, reference: rows[i]!.reference }));
}

const SLUG = 'fjord-kayaks';
const db = useTestDatabase({ poolSize: 10 });
const server = useTestServer(() => createTestPartnerApp(db.pool, { bookingPageDir: buildBookingPage() }));
const browser = useBrowser();
let accountId: string;
let activity: Activity;
let catcher: SmtpCatcher | undefined;
// The metered events of the messages sent are the mail worker's own tests' business; here nothing listens.
const noEvents: EventPublisher = { publish: () => Promise.resolve(), publishBulk: () => Promise.resolve(), close: () => Promise.resolve() };
afterAll(() => catcher?.close());

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  const operator = await createTestAccount(db.pool, { timeZone: 'Europe/Oslo', name: 'Fjord Kayaks of Geirangerfjorden and Sunnylvsfjorden' });
  accountId = operator.account.id;
  activity = await createTestActivity(db.pool, accountId, {
    name: 'Sunrise sea-kayak expedition under the Seven Sisters waterfall',
    timeZone: 'Europe/Oslo',
    maxParticipants: 6,
    priceMinor: 89000,
    currency: 'NOK',
  });
  const saved = await saveBookingPage(db.pool, accountId, { enabled: true, slug: SLUG });
  if (typeof saved === 'string') throw new Error(saved);
});

/** A date of its own with one time of two places, both taken by one booking; answers the booking's reference. */
async function fullDate(days: number): Promise<{ date: string; reference: string }> {
  const date = futureDate(days, 'Europe/Oslo');
  await createTestTimeslot(db.pool, activity, { date, time: '07:30', capacity: 2 });
  const { value } = await createBooking(
    { pool: db.pool },
    {
      accountId,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel: 'online',
      activityId: activity.activityId,
      date,
      time: '07:30',
      participants: 2,
      customer: { FirstName: 'Early', LastName: 'Bird', Email: 'early@example.com' },
      paymentReference: null,
      answers: undefined,
    },
  );
  return { date, reference: value.Reference };
}

async function entryOf(email: string) {
  const { rows } = await db.pool.query<{ id: string; state: string; status: string | null }>(
    `SELECT w.id, w.state, b.status FROM waitlist_entries w LEFT JOIN bookings b ON b.id = w.booking_id WHERE w.email = $1`,
    [email],
  );
  return rows[0];
}

describe.each([
  ['phone', 12],
  ['desktop', 13],
] as const)('the waitlist at %s width', (width: Width, days) => {
  it('joins a full time, then claims the offer from its link', async () => {
    const page = browser[width];
    const { date, reference } = await fullDate(days);
    const email = `maria-${width}@example.com`;
    await page.goto(`${server.url}/book/${SLUG}/${activity.activityId}?date=${date}`);
    await page.getByLabel('Participants').selectOption('2');
    const join = page.getByRole('button', { name: /Join the waitlist for 0?7:30/ });
    await join.waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist-full-time');
    await join.click();

    await page.getByRole('heading', { name: 'Join the waitlist' }).waitFor();
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    // Nothing filled in: each required field says so, the phone may stay empty.
    await page.getByText('Enter your first name.').waitFor();
    expect(await page.getByText('Enter your phone number').count()).toBe(0);
    await page.getByLabel('First name').fill('María de los Ángeles Concepción');
    await page.getByLabel('Last name').fill('Fernández-Villaverde y Altamirano-Gutiérrez');
    await page.getByLabel('Email').fill(email);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist-form');
    await page.getByRole('button', { name: 'Join the waitlist' }).click();
    await page.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
    expect(await page.locator('.reference').innerText()).toBe('1');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist-joined');
    expect((await entryOf(email))!.state).toBe('waiting');

    // Places free up: the booking worker's pass offers them and writes the e-mail with the claim link.
    await cancelBooking({ pool: db.pool }, { owner: { accountId, partnerId: null }, reference }, { Reason: 'Ill' }, { kind: 'system' });
    await offerFreedPlaces({ pool: db.pool }, 100);
    const rows = await claimLinks(email);
    expect(rows[0]!.path).toMatch(new RegExp(`^/book/${SLUG}/claim/[A-Za-z0-9_-]{43}$`));

    await page.goto(`${server.url}${rows[0]!.path}`);
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('María de los Ángeles Concepción');
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    expect(await page.getByRole('button', { name: 'Change date, time or participants' }).count()).toBe(0);
    await page.getByLabel('Phone').fill('+47 912 34 567');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist-claim');
    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByRole('heading', { name: 'Booking confirmed' }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist-claimed');
    expect(await entryOf(email)).toMatchObject({ state: 'claimed', status: 'confirmed' });

    // The link again: the booking, and the way to manage it.
    await page.goto(`${server.url}${rows[0]!.path}`);
    await page.getByText('You booked these places.').waitFor();
    await page.getByRole('link', { name: 'Manage your booking' }).waitFor();
  });
});

it('tells a customer whose offer ended that the places went on', async () => {
  const page = browser.phone;
  const { date, reference } = await fullDate(20);
  await page.goto(`${server.url}/book/${SLUG}/${activity.activityId}?date=${date}`);
  await page.getByRole('button', { name: /Join the waitlist for 0?7:30/ }).click();
  await page.getByLabel('First name').fill('Late');
  await page.getByLabel('Last name').fill('Comer');
  await page.getByLabel('Email').fill('late@example.com');
  await page.getByRole('button', { name: 'Join the waitlist' }).click();
  await page.getByRole('heading', { name: 'You are on the waitlist' }).waitFor();
  await cancelBooking({ pool: db.pool }, { owner: { accountId, partnerId: null }, reference }, {}, { kind: 'system' });
  await offerFreedPlaces({ pool: db.pool }, 100);
  const rows = await claimLinks('late@example.com');
  // The offer's time runs out (the hold's expiry moved to the past: the database's clock is the one asked).
  await db.pool.query(`UPDATE bookings SET expires_at = now() - interval '1 second' WHERE reference = $1`, [rows[0]!.reference]);
  await offerFreedPlaces({ pool: db.pool }, 100);
  await page.goto(`${server.url}${rows[0]!.path}`);
  await page.getByText('This offer has ended').waitFor();
  expect(await layoutProblems(page)).toEqual([]);
  await screenshot(page, 'waitlist-ended');
});
