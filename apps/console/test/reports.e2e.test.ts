// The Sales page at the end of the day in Chromium at 1280 and 390 px (issue 39.5): today's sales are of timeslots in
// the coming days, so "Booked on" + Today shows them where "Takes place on" does not; Yesterday and This month are
// one click; the CSV holds the report's lines with amounts in major units, formula-safe.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';
import { createTestActivity } from '@backbone/testkit';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
const lisbon = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + offsetDays * 86_400_000));

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  const hostile = await createTestActivity(db.pool, operator.account.id, { name: '=HYPERLINK("http://evil.example")', timeZone: 'Europe/Lisbon' });
  await createSlot(db.pool, operator.activity, lisbon(5), '10:00', 8);
  await createSlot(db.pool, hostile, lisbon(6), '10:00', 8);
  await bookDirect(db.pool, operator, { date: lisbon(5), time: '10:00' }, 'pos', { FirstName: 'Rita', LastName: 'Desk' });
  await bookDirect(db.pool, { ...operator, activity: hostile }, { date: lisbon(6), time: '10:00' }, 'online', { FirstName: 'Eve', LastName: 'Sheet' });
});

describe('console: the sales of the day', () => {
  it('shows what was booked today, by one click, and exports it as CSV', async () => {
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(`${operatorApi.url}/console/reports`);
      await page.getByRole('button', { name: 'Today' }).click();
      await page.getByText('No bookings take place on these days.').waitFor();
      await page.getByLabel('Dates of').selectOption('booked');
      const revenue = page.locator('[data-total="revenue"]');
      await revenue.waitFor();
      expect(await revenue.getAttribute('data-minor')).toBe(String(2 * 4500));
      expect(page.url()).toContain(`From=${lisbon(0)}&To=${lisbon(0)}&By=booked`);
      expect(await page.getByRole('button', { name: 'Today' }).getAttribute('aria-pressed')).toBe('true');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'sales-booked-today');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
      expect(download.suggestedFilename()).toBe(`sales-booked-${lisbon(0)}-to-${lisbon(0)}.csv`);
      const csv = readFileSync(await download.path(), 'utf8')
        .replace(/^\uFEFF/, '')
        .split('\r\n');
      expect(csv[0]).toBe('"Currency","Section","Name","Bookings","Participants","Revenue"');
      expect(csv).toContain('"EUR","Total","","2","2","90.00"');
      expect(csv).toContain('"EUR","Channel","pos","1","1","45.00"');
      expect(csv).toContain(`"EUR","Activity","'=HYPERLINK(""http://evil.example"")","1","1","45.00"`);
      await page.getByRole('button', { name: 'Yesterday' }).click();
      await page.getByText('No bookings were made on these days.').waitFor();
      await page.getByRole('button', { name: 'This month' }).click();
      await revenue.waitFor();
      expect(page.url()).toContain(`From=${lisbon(0).slice(0, 8)}01`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });

  it('records how a desk sale was paid and cashes up the day by it', async () => {
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/sale?ActivityID=${operator.activity.activityId}&Date=${lisbon(5)}&Time=10:00`);
    const form = page.getByRole('form', { name: 'Point-of-sale sale' });
    await form.getByLabel('Timeslot').locator('option[value="10:00"]').waitFor({ state: 'attached' });
    await form.getByLabel('Participants').fill('2');
    await form.getByLabel('First name').fill('Cash');
    await form.getByLabel('Last name').fill('Customer');
    await form.getByLabel('Paid by').selectOption('cash');
    await form.getByRole('button', { name: 'Sell' }).click();
    const sold = page.getByRole('status').filter({ hasText: 'Sold' });
    await sold.waitFor();
    const reference = (await sold.getByRole('link').textContent())!;
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    await page
      .getByRole('complementary', { name: `Booking ${reference}` })
      .getByText('Paid by')
      .waitFor();
    await page.goto(`${operatorApi.url}/console/reports?From=${lisbon(0)}&To=${lisbon(0)}&By=booked`);
    const cashUp = page.getByRole('table', { name: "Paid by (the desk's cash-up) (EUR)" });
    await cashUp.waitFor();
    expect(await cashUp.locator('tr[data-row="cash"] td[data-label="Revenue"]').getAttribute('data-revenue-minor')).toBe(String(2 * 4500));
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'sales-cash-up');
  });
});
