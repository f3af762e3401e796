// The bookings list filtered by channel with OCTO as its own value, in Chromium at 1280 and 390 px (issue 39.10): a
// reseller's OCTO booking is found under OCTO and not under the partner API's channel, and the CSV export follows.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
let apiReference: string;
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
      Customer: { FirstName: 'Ana', LastName: 'Partner-Api', Email: 'ana@example.com' },
    },
  });
  expect(booking.status, booking.text).toBe(201);
  apiReference = booking.body.Reference;
  const availability = await request(partnerApi.url, 'POST', '/octo/availability', {
    key: operator.ota,
    body: { productId: operator.activity.activityId, optionId: 'DEFAULT', localDate: date },
  });
  const held = await request(partnerApi.url, 'POST', '/octo/bookings', {
    key: operator.ota,
    body: { productId: operator.activity.activityId, optionId: 'DEFAULT', availabilityId: availability.body[0].id, unitItems: [{ unitId: 'adult' }] },
  });
  const confirmed = await request(partnerApi.url, 'POST', `/octo/bookings/${held.body.uuid}/confirm`, {
    key: operator.ota,
    body: { contact: { firstName: 'Zoë', lastName: 'van der Berg-Oosterhuis', emailAddress: 'zoe@example.com' }, resellerReference: 'RES-7781' },
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  octoReference = confirmed.body.supplierReference;
  await bookDirect(db.pool, operator, { date, time: '10:00' }, 'pos', { FirstName: 'Walk', LastName: 'In' });
});

describe('console: the channel filter', () => {
  it('filters OCTO apart from the partner API, in the list and its CSV', async () => {
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.locator(`tr[data-reference="${octoReference}"]`).waitFor();
      await page.getByLabel('Channel').selectOption('octo');
      await expect.poll(() => page.url()).toContain('Channel=octo');
      const rows = page.locator('tbody tr[data-reference]');
      await expect.poll(() => rows.count()).toBe(1);
      expect(await rows.first().getAttribute('data-reference')).toBe(octoReference);
      expect(await rows.first().locator('.badge').textContent()).toBe('OCTO');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'bookings-channel-octo');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv).toContain(octoReference);
      expect(csv).not.toContain(apiReference);

      await page.getByLabel('Channel').selectOption('ota');
      await expect.poll(async () => (await rows.count()) === 1 && (await rows.first().getAttribute('data-reference')) === apiReference).toBe(true);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
