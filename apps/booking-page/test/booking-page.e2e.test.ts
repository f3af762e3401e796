// The booking page over the real partner API (the test app on a fresh schema, the page built by Vite and served
// under /book as `npm start` serves it), in headless Chromium at 390 px: book an activity answering its questions,
// find the booking in the database as an ordinary online booking with the answers, cancel it at the manage link; an
// unknown slug is a 404. The UI's details are in booking-page-ui.e2e.test.ts, over the in-memory double.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import type { Activity } from '@backbone/domain';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestAccount, createTestActivity, createTestQuestion, createTestTimeslot, futureDate, useTestDatabase, useTestServer } from '@backbone/testkit';
import { layoutProblems } from './layout.js';
import { buildBookingPage, useBrowser } from './support.js';

const SLUG = 'harbour-kayaks';
const db = useTestDatabase({ poolSize: 10 });
const server = useTestServer(() => createTestPartnerApp(db.pool, { bookingPageDir: buildBookingPage() }));
const browser = useBrowser();
let activity: Activity;
let questions: { allergies: number; experience: number };
let date: string;

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
  questions = { allergies: allergies.id, experience: experience.id };
  date = futureDate(3);
  await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 8 });
  const saved = await saveBookingPage(db.pool, operator.account.id, { enabled: true, slug: SLUG, embedOrigins: ['https://www.harbour-kayaks.example'] });
  if (typeof saved === 'string') throw new Error(saved);
});

afterAll(() => {
  expect(browser.errors).toEqual([]);
});

async function bookingRow(reference: string) {
  const { rows } = await db.pool.query<{ channel: string; status: string; participants: number; customer: { Email: string }; answers: unknown }>(
    'SELECT channel, status, participants, customer, answers FROM bookings WHERE reference = $1',
    [reference],
  );
  return rows[0];
}

describe('booking page over the real partner API, at 390 px', () => {
  it('books with answers (an online booking in the database), then cancels it at the manage link', async () => {
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
    await page.getByLabel('First name').fill('Ana');
    await page.getByLabel('Last name').fill('Silva');
    await page.getByLabel('Email').fill('ana.silva@example.com');
    await page.getByLabel('Phone').fill('+351 912 345 678');
    expect(await layoutProblems(page)).toEqual([]);
    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByRole('heading', { name: 'Booking confirmed' }).waitFor();
    const reference = (await page.locator('.reference').innerText()).trim();

    const booked = await bookingRow(reference);
    expect(booked).toMatchObject({ channel: 'online', status: 'confirmed', participants: 2, customer: { Email: 'ana.silva@example.com' } });
    expect(booked!.answers).toEqual([
      expect.objectContaining({ QuestionID: questions.allergies, Value: 'Peanuts' }),
      expect.objectContaining({ QuestionID: questions.experience, Value: 'Some' }),
    ]);
    expect(await layoutProblems(page)).toEqual([]);

    await page.getByRole('link', { name: 'Manage your booking' }).click();
    await page.getByRole('heading', { name: 'Your booking' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`/book/${SLUG}/manage/[A-Za-z0-9_-]{43}$`));
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    expect((await bookingRow(reference))!.status).toBe('cancelled');
    const { rows } = await db.pool.query<{ booked: number }>('SELECT booked FROM timeslots WHERE activity_id = $1', [activity.id]);
    expect(rows).toEqual([{ booked: 0 }]);
  });

  it('answers an unknown slug with a 404 page', async () => {
    const page = browser.phone;
    const answer = await page.goto(`${server.url}/book/nobody-here`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
  });
});
