// Waiver answers at the desk in Chromium at 1280 and 390 px (issue 39.4, 39.17): an http(s) URL answer is a link that
// opens apart (rel="noopener noreferrer"), any other scheme or markup stays text.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestQuestion, request } from '@backbone/testkit';
import { createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
let date: string;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 2 * 86_400_000));
  await createSlot(db.pool, operator.activity, date, '10:00', 8);
});

describe('console: answers that are web addresses', () => {
  it('links an http(s) answer and leaves other schemes and markup as text', async () => {
    const licence = await createTestQuestion(db.pool, operator.activity, { question: 'Licence (upload or link)', type: 'file', required: false });
    const site = await createTestQuestion(db.pool, operator.activity, { question: 'Club website', type: 'text', required: false });
    const script = await createTestQuestion(db.pool, operator.activity, { question: 'Anything else', type: 'text', required: false });
    const markup = await createTestQuestion(db.pool, operator.activity, { question: 'Allergies', type: 'text', required: false });
    const sentence = await createTestQuestion(db.pool, operator.activity, { question: 'Where did you hear of us', type: 'text', required: false });
    const booking = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
      key: operator.ota,
      body: {
        ActivityID: operator.activity.activityId,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: { FirstName: 'Ana', LastName: 'Links', Email: 'ana@example.com' },
        Answers: [
          { QuestionID: licence.id, Value: 'https://files.example.com/licences/ana-links-driving-licence-2025-front-and-back.pdf?version=2' },
          { QuestionID: site.id, Value: 'http://club.example.org/' },
          { QuestionID: script.id, Value: 'javascript:alert(1)' },
          { QuestionID: markup.id, Value: '<img src=x onerror="document.title=1">peanuts' },
          { QuestionID: sentence.id, Value: 'A friend, see https://example.net' },
        ],
      },
    });
    expect(booking.status, booking.text).toBe(201);
    const reference = booking.body.Reference as string;
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.ownerEmail);
      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
      const answer = (question: string) => panel.locator('.answer', { hasText: question }).locator('dd');
      await answer('Licence').waitFor();
      const link = answer('Licence').getByRole('link');
      expect(await link.getAttribute('href')).toBe('https://files.example.com/licences/ana-links-driving-licence-2025-front-and-back.pdf?version=2');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await answer('Club website').getByRole('link').getAttribute('href')).toBe('http://club.example.org/');
      expect(await answer('Anything else').locator('a').count()).toBe(0);
      expect(await answer('Anything else').textContent()).toBe('javascript:alert(1)');
      expect(await answer('Allergies').locator('img').count()).toBe(0);
      expect(await answer('Allergies').textContent()).toBe('<img src=x onerror="document.title=1">peanuts');
      expect(await answer('Where did you hear').locator('a').count()).toBe(0);
      expect(await page.title()).not.toBe('1');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'answer-links');
    }
  });
});
