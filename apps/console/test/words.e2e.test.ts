// Raw data in words in Chromium at 1280 and 390 px (issue 39.10, 39.15): a booking's history says what happened in
// words and names the partner without its key's internal id; the audit log writes a price as money and an empty list
// as a dash; a booking made through OCTO shows as OCTO, with the reseller's reference named as such.
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
let reference: string;
let octoReference: string;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 2 * 86_400_000));
  await createSlot(db.pool, operator.activity, date, '10:00', 8);
  const booking = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
    key: operator.ota,
    body: {
      ActivityID: operator.activity.activityId,
      Date: date,
      Time: '10:00',
      Participants: 2,
      Customer: { FirstName: 'Ana', LastName: 'Words', Email: 'ana@example.com' },
    },
  });
  expect(booking.status, booking.text).toBe(201);
  reference = booking.body.Reference;
  const admin = await operator.keyWith(['admin']);
  const priced = await request(operatorApi.url, 'PATCH', `/api/v2/operator/activities/${operator.activity.activityId}`, {
    key: admin,
    body: { Price: { Amount: 5000, Currency: 'EUR' } },
  });
  expect(priced.status, priced.text).toBe(200);
  const asked = await request(operatorApi.url, 'POST', `/api/v2/operator/activities/${operator.activity.activityId}/questions`, {
    key: admin,
    body: { Question: 'Any allergies?', Type: 'text', Required: false, Options: [], PerParticipant: false },
  });
  expect(asked.status, asked.text).toBe(201);
  const availability = await request(partnerApi.url, 'POST', '/octo/availability', {
    key: operator.ota,
    body: { productId: operator.activity.activityId, optionId: 'DEFAULT', localDate: date },
  });
  expect(availability.status, availability.text).toBe(200);
  const held = await request(partnerApi.url, 'POST', '/octo/bookings', {
    key: operator.ota,
    body: { productId: operator.activity.activityId, optionId: 'DEFAULT', availabilityId: availability.body[0].id, unitItems: [{ unitId: 'adult' }] },
  });
  expect(held.status, held.text).toBe(200);
  const confirmed = await request(partnerApi.url, 'POST', `/octo/bookings/${held.body.uuid}/confirm`, {
    key: operator.ota,
    body: { contact: { firstName: 'Zoë', lastName: 'van der Berg', emailAddress: 'zoe@example.com' }, resellerReference: 'RES-7781' },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  octoReference = confirmed.body.supplierReference;
});

describe('console: words, not raw data', () => {
  it('says a booking’s history and the audit log’s changes in words', async () => {
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.ownerEmail);
      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const created = page.locator('.history li[data-action="created"]');
      await created.waitFor();
      expect(await created.locator('.history-what').textContent()).toBe('Booked');
      const who = (await created.locator('.history-who').textContent())!;
      expect(who).not.toMatch(/key|[0-9a-f]{8}-[0-9a-f]{4}/i);
      await page.goto(`${operatorApi.url}/console/audit`);
      const price = page.locator('tr[data-action="activity.updated"] td[data-label="Changes"]');
      await price.waitFor();
      expect(await price.textContent()).toBe('Price: €45.00 → €50.00');
      const question = (await page.locator('tr[data-action="question.added"] td[data-label="Changes"]').textContent())!;
      expect(question).toContain('Options: —');
      expect(question).toContain('Per participant: no');
      expect(question).not.toMatch(/: ;|true|false/);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'audit-words');
      // OCTO's booking: the channel says OCTO, in the list and the panel, and its reference is the reseller's.
      await page.goto(`${operatorApi.url}/console/bookings?Open=${octoReference}`);
      const row = page.locator(`tr[data-reference="${octoReference}"]`);
      await row.waitFor();
      expect(await row.locator('.badge').textContent()).toBe('OCTO');
      const panel = page.getByRole('complementary', { name: `Booking ${octoReference}` });
      await panel.getByText('Reseller reference').waitFor();
      expect(await panel.locator('dt', { hasText: 'Reseller reference' }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('RES-7781');
      expect(await panel.locator('.badge').textContent()).toBe('OCTO');
      await screenshot(page, 'octo-booking');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
