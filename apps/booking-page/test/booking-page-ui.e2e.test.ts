// The booking page in a real headless Chromium at 390 and 1280 px, over an in-memory shop API (shop-double.ts): the
// list, a deep link to a date, full timeslots, Participants, the hold's time, every question type the activity asks
// (a file uploaded), errors next to their fields and announced, the honeypot out of people's and screen readers'
// reach, the confirmation, the manage link's move and cancel, and the 404 page; no page wider than the screen, every
// target 44x44 px on the phone. Screenshots go to test/screenshots/.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBookingPage } from '@backbone/partner-api';
import { layoutProblems } from './layout.js';
import { ACTIVITY_ID, createShopDouble, dayFromNow, SLUG } from './shop-double.js';
import { buildBookingPage, screenshot, useBrowser, type Width } from './support.js';

const browser = useBrowser();
const shop = createShopDouble();
let base: string;
let server: http.Server;

beforeAll(async () => {
  const dist = buildBookingPage();
  const app = express();
  app.use(shop.app);
  serveBookingPage(app, dist, async (slug) => (slug === SLUG ? { embedOrigins: ['https://www.fjord-kayaks.example'] } : null));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  expect(browser.errors).toEqual([]);
});

const WIDTHS: Width[] = ['phone', 'desktop'];

describe.each(WIDTHS)('booking page at %s width', (width) => {
  it('lists the activities with duration and price in the account locale and currency', async () => {
    const page = browser[width];
    await page.goto(`${base}/book/${SLUG}`);
    await page.getByRole('heading', { name: 'Book online' }).waitFor();
    const text = await page.locator('main').innerText();
    expect(text).toContain('Sunset sea-kayak expedition');
    expect(text).toContain('€49.50');
    expect(text).toContain('2 hours 30 minutes');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'list');
  });

  it('books from a deep link: date, full timeslot, Participants, hold, answers with a file, details, Book', async () => {
    const page = browser[width];
    const date = dayFromNow(2);
    await page.goto(`${base}/book/${SLUG}/${ACTIVITY_ID}?date=${date}`);
    await page.getByRole('heading', { name: /^Time on/ }).waitFor();
    // The deep link's date is chosen; the full 09:00 is shown as full and cannot be chosen (its waitlist can be joined).
    expect(await page.locator('.day[aria-pressed="true"]').count()).toBe(1);
    const full = page.getByRole('button', { name: /0?9:00\s*Full/ });
    expect(await full.getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: /Join the waitlist for 0?9:00/ }).waitFor();
    await page.getByLabel('Participants').selectOption('3');
    expect(await page.getByRole('button', { name: /^13:30/ }).getAttribute('aria-disabled')).toBe('true');
    await page.getByRole('button', { name: /18:00/ }).click();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'choose');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Your details' }).waitFor();
    expect(await page.locator('.hold-timer').innerText()).toMatch(/held for \d+:\d\d/);

    // Book with nothing filled in: each error next to its field, tied to it, and the focus on the first.
    await page.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => page.locator('.error:not(:empty)').count()).toBeGreaterThan(5);
    expect(await page.getByRole('alert').filter({ hasText: 'need your attention' }).count()).toBe(1);
    const first = page.locator('#q1');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('q1');
    expect(await first.getAttribute('aria-invalid')).toBe('true');
    expect(await first.getAttribute('aria-describedby')).toContain('q1-error');
    expect(await page.locator('#q1-error').innerText()).toBe('Answer this question.');
    expect(await page.locator('#Email-error').innerText()).toContain('Enter your email address');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'errors');

    const longAnswer =
      'Mild asthma (inhaler in my dry bag); allergic to penicillin and to wasps. My daughter Maria-Inês is eleven and has paddled twice before on the river, ' +
      'always with a buoyancy aid that fits her: please bring a child size one.';
    await page.getByLabel(/Any medical conditions/).fill(longAnswer);
    await page.getByLabel('Paddling experience').selectOption('Some');
    await page.getByLabel(/Signed waiver/).setInputFiles({ name: 'waiver.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%waiver\n') });
    await page.getByText('Uploaded: waiver.pdf').waitFor();
    await page.getByLabel('I can swim 50 metres').check();
    await page.getByLabel('First name').fill('Maria-Inês Alexandrina');
    await page.getByLabel('Last name').fill('Vasconcelos de Albuquerque e Sousa Magalhães');
    await page.getByLabel('Email').fill('maria.ines.vasconcelos.albuquerque@correio-muito-comprido.example');
    await page.getByLabel('Phone').fill('+351 912 345 678');
    await page.getByLabel('I accept the terms and conditions').check();
    // The honeypot is out of the accessibility tree and out of the tab order.
    expect(await page.getByRole('textbox', { name: 'Website' }).count()).toBe(0);
    expect((await page.locator('#website').boundingBox())!.x).toBeLessThan(-1000);
    expect(await page.locator('#website').getAttribute('tabindex')).toBe('-1');
    const summary = await page.locator('.summary').innerText();
    expect(summary).toContain('€148.50');
    expect(summary).toContain('Paid at the venue');
    expect(summary).toContain('blue hut');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'details');

    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByRole('heading', { name: 'Booking confirmed' }).waitFor();
    const booking = shop.bookings.at(-1)!;
    expect(booking.Status).toBe('confirmed');
    expect(booking.Website).toBe('');
    expect(booking.Participants).toBe(3);
    expect(booking.Answers).toEqual([
      { QuestionID: 1, Value: longAnswer },
      { QuestionID: 2, Value: 'Some' },
      { QuestionID: 3, FileID: expect.any(String) },
      { QuestionID: 4, Value: true },
    ]);
    expect(await page.locator('.reference').innerText()).toBe(booking.Reference);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'confirmed');

    // The manage link: move to another date and time, then cancel.
    await page.getByRole('link', { name: 'Manage your booking' }).click();
    await page.getByRole('heading', { name: 'Your booking' }).waitFor();
    expect(page.url()).toContain(`/book/${SLUG}/manage/${booking.Token}`);
    await page.getByRole('button', { name: 'Move to another time' }).click();
    await page.locator('.day.open').last().click();
    await page.getByRole('button', { name: /18:00/ }).click();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'manage-move');
    await page.getByRole('button', { name: 'Move booking' }).click();
    await page.getByRole('status').filter({ hasText: 'moved' }).waitFor();
    expect([1, 2, 5].map(dayFromNow)).toContain(booking.Date);
    expect(booking.Time).toBe('18:00');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByRole('button', { name: 'Yes, cancel it' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    expect(booking.Status).toBe('cancelled');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'manage-cancelled');
  });

  it("shows the server's field error next to its field", async () => {
    const page = browser[width];
    await page.goto(`${base}/book/${SLUG}/${ACTIVITY_ID}?date=${dayFromNow(1)}`);
    await page.getByRole('button', { name: /18:00/ }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByLabel(/Any medical conditions/).fill('None');
    await page.getByLabel('Paddling experience').selectOption('None');
    await page.getByLabel(/Signed waiver/).setInputFiles({ name: 'w.png', mimeType: 'image/png', buffer: Buffer.from('\x89PNG\r\n') });
    await page.getByText('Uploaded: w.png').waitFor();
    await page.getByLabel('I can swim 50 metres').check();
    await page.getByLabel('First name').fill('Bo');
    await page.getByLabel('Last name').fill('Lind');
    await page.getByLabel('Email').fill('bo@invalid.example');
    await page.getByLabel('Phone').fill('+46 70 123 45 67');
    await page.getByLabel('I accept the terms and conditions').check();
    await page.getByRole('button', { name: 'Book' }).click();
    await expect.poll(() => page.locator('#Email-error').innerText()).toBe('This address cannot receive mail.');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('Email');
  });

  it('answers an unknown slug with a 404 page', async () => {
    const page = browser[width];
    const answer = await page.goto(`${base}/book/nobody-here`);
    expect(answer?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'not-found');
  });
});
