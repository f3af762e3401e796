// The booking page over the real partner API (the test app on a fresh schema, the page built by Vite and served
// under /book as `npm start` serves it), in headless Chromium at 390 px: book an activity answering its questions and
// uploading a signed waiver, find the booking in the database as an ordinary online booking with the answers and the
// file, move it to another time at the manage link, see it in the console's bookings list (the real operator API
// serving the built console, at 1280 px) as an online booking at its new time, then cancel it at the manage link; an
// unknown slug is a 404. The UI's details are in booking-page-ui.e2e.test.ts, over the in-memory double.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import {
  createTestAccount,
  createTestActivity,
  createTestQuestion,
  createTestTimeslot,
  futureDate,
  sampleFile,
  useTestDatabase,
  useTestRedis,
  useTestServer,
} from '@backbone/testkit';
import { createOperatorUser } from '@backbone/use-cases';
import { layoutProblems } from './layout.js';
import { buildBookingPage, buildConsole, screenshot, useBrowser } from './support.js';

const SLUG = 'harbour-kayaks';
const db = useTestDatabase({ poolSize: 10 });
const redis = useTestRedis();
const server = useTestServer(() => createTestPartnerApp(db.pool, { bookingPageDir: buildBookingPage() }));
let queues: EventQueues | undefined;
const operatorApi = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues, consoleDir: buildConsole() });
});
const browser = useBrowser();
let activity: Activity;
let questions: { allergies: number; experience: number; waiver: number };
let date: string;
const OWNER = { email: 'owner@harbour-kayaks.example', password: 'correct horse battery' };

beforeAll(async () => {
  const operator = await createTestAccount(db.pool, { timeZone: 'Europe/Berlin' });
  activity = await createTestActivity(db.pool, operator.account.id, {
    name: 'Harbour kayak tour',
    timeZone: 'Europe/Berlin',
    maxParticipants: 6,
    priceMinor: 3900,
    currency: 'EUR',
  });
  const allergies = await createTestQuestion(db.pool, activity, { question: 'Any allergies?', type: 'text', required: true });
  const experience = await createTestQuestion(db.pool, activity, { question: 'Experience', type: 'select', required: true, options: ['None', 'Some'] });
  const waiver = await createTestQuestion(db.pool, activity, { question: 'Signed waiver', type: 'file', required: true });
  questions = { allergies: allergies.id, experience: experience.id, waiver: waiver.id };
  date = futureDate(3);
  await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 8 });
  await createTestTimeslot(db.pool, activity, { date, time: '15:00', capacity: 8 });
  await createOperatorUser(
    { pool: db.pool },
    { accountId: operator.account.id, email: OWNER.email, role: 'owner', password: OWNER.password, actor: { kind: 'system' } },
  );
  const saved = await saveBookingPage(db.pool, operator.account.id, { enabled: true, slug: SLUG, embedOrigins: ['https://www.harbour-kayaks.example'] });
  if (typeof saved === 'string') throw new Error(saved);
});

afterAll(async () => {
  if (queues) await closeQueues(queues);
  expect(browser.errors).toEqual([]);
});

async function bookingRow(reference: string) {
  const { rows } = await db.pool.query<{
    channel: string;
    status: string;
    participants: number;
    customer: { Email: string };
    answers: unknown;
    time: string;
    files: string[];
  }>(
    `SELECT b.channel, b.status, b.participants, b.customer, b.answers, to_char(t.local_time, 'HH24:MI') AS time,
            array(SELECT f.name FROM files f WHERE f.booking_id = b.id ORDER BY f.name) AS files
       FROM bookings b JOIN timeslots t ON t.id = b.timeslot_id WHERE b.reference = $1`,
    [reference],
  );
  return rows[0];
}

describe('booking page over the real partner API, at 390 px', () => {
  it('books with answers and a file (an online booking in the database), moves it at the manage link, shows it in the console, then cancels it', async () => {
    const page = browser.phone;
    const answer = await page.goto(`${server.url}/book/${SLUG}`);
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-security-policy']).toContain('frame-ancestors https://www.harbour-kayaks.example');
    await page.getByRole('link', { name: 'Harbour kayak tour', exact: true }).waitFor();
    await page.goto(`${server.url}/book/${SLUG}/${activity.activityId}?date=${date}`);
    await page.getByLabel('Participants').selectOption('2');
    await page.getByRole('button', { name: /10:00/ }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();

    await page.getByLabel(/Any allergies/).fill('Peanuts');
    await page.getByLabel('Experience').selectOption('Some');
    await page
      .getByLabel(/Signed waiver/)
      .setInputFiles({ name: 'Ana Silva waiver.pdf', mimeType: 'application/pdf', buffer: sampleFile('application/pdf', 20_000) });
    await page.getByText('Uploaded: Ana Silva waiver.pdf').waitFor();
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Silva');
    await page.getByLabel('Email').fill('ana.silva@example.com');
    await page.getByLabel('Phone').fill('+351 912 345 678');
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByRole('heading', { name: 'Booking confirmed' }).waitFor();
    const reference = (await page.locator('.reference').innerText()).trim();

    const booked = await bookingRow(reference);
    expect(booked).toMatchObject({ channel: 'online', status: 'confirmed', participants: 2, customer: { Email: 'ana.silva@example.com' }, time: '10:00' });
    expect(booked!.answers).toEqual([
      expect.objectContaining({ QuestionID: questions.allergies, Value: 'Peanuts' }),
      expect.objectContaining({ QuestionID: questions.experience, Value: 'Some' }),
      expect.objectContaining({ QuestionID: questions.waiver }),
    ]);
    expect(booked!.files).toEqual(['Ana Silva waiver.pdf']);
    expect(await layoutProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Manage your booking' }).click();
    await page.getByRole('heading', { name: 'Your booking' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`/book/${SLUG}/manage/[A-Za-z0-9_-]{43}$`));
    await page.getByRole('button', { name: 'Move to another time' }).click();
    await page.locator('.day.open').last().click();
    await page.getByRole('button', { name: /15:00/ }).click();
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Move booking' }).click();
    await page.getByRole('status').filter({ hasText: 'moved' }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'real-api-moved');
    expect(await bookingRow(reference)).toMatchObject({ status: 'confirmed', time: '15:00', files: ['Ana Silva waiver.pdf'] });

    // The operator sees it in the console's bookings list: channel online, at its new time.
    const desk = browser.desktop;
    await desk.goto(`${operatorApi.url}/console/bookings`);
    await desk.getByLabel('E-mail').fill(OWNER.email);
    await desk.getByLabel('Password').fill(OWNER.password);
    await desk.getByRole('button', { name: 'Sign in' }).click();
    await desk.getByRole('heading', { name: 'Bookings' }).waitFor();
    await desk.goto(`${operatorApi.url}/console/bookings?Q=${reference}`);
    const row = desk.locator(`tr[data-reference="${reference}"]`);
    await row.waitFor();
    expect(await row.locator('td[data-label="Channel"] .badge').textContent()).toBe('online');
    expect(await row.locator('td[data-label="When"]').innerText()).toBe(`${date} 15:00`);
    expect(await row.locator('td[data-label="Customer"]').innerText()).toContain('Ana Silva');
    expect(await layoutProblems(desk)).toEqual([]);
    await screenshot(desk, 'real-api-console-bookings');

    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    expect((await bookingRow(reference))!.status).toBe('cancelled');
    const { rows } = await db.pool.query<{ booked: number }>('SELECT booked FROM timeslots WHERE activity_id = $1', [activity.id]);
    expect(rows).toEqual([{ booked: 0 }, { booked: 0 }]);
  });

  it('answers an unknown slug with a 404 page', async () => {
    const page = browser.phone;
    const answer = await page.goto(`${server.url}/book/nobody-here`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});
