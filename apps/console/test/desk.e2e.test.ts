// The desk's small frictions in Chromium at 1280 and 390 px: the focus stays on Check in / Undo (panel and manifest),
// statuses and counts in words, Availability opening on today, and the phone header's pages in one row that scrolls sideways.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
let reference: string;
let date: string;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  // Today in the account's zone (Lisbon: UTC's date but for an hour at most), late enough not to have started.
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date());
  await createSlot(db.pool, operator.activity, date, '23:59', 8);
  reference = (await bookDirect(db.pool, operator, { date, time: '23:59' }, 'online', { FirstName: 'Marta', LastName: 'Silva' })).Reference;
});

const focused = (page: import('playwright-core').Page) => page.evaluate(() => document.activeElement?.textContent ?? document.activeElement?.tagName ?? '');
const focusedLabel = (page: import('playwright-core').Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');

describe('console: at the desk', () => {
  it('keeps the focus on Check in / Undo check-in in the booking panel, and says statuses in words', async () => {
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.ownerEmail);
    const row = page.locator(`tr[data-reference="${reference}"]`);
    expect(await row.locator('.status').textContent()).toBe('Confirmed');
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = page.locator('.detail-panel');
    await panel.getByRole('button', { name: 'Check in' }).click();
    const undo = panel.getByRole('button', { name: 'Undo check-in' });
    await undo.waitFor();
    expect(await focused(page)).toBe('Undo check-in');
    // Until the lists asked again have answered, the button says it is busy and a press does nothing.
    await expect.poll(() => undo.getAttribute('aria-disabled')).toBe('false');
    await page.keyboard.press('Enter');
    await panel.getByRole('button', { name: 'Check in' }).waitFor();
    expect(await focused(page)).toBe('Check in');
    expect(await panel.locator('[data-status]').textContent()).toBe('Confirmed');
  });

  it('keeps the focus on the manifest’s Check in / Undo on a phone', async () => {
    const page = browser.phone;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/manifest?Date=${date}`);
    // Counts in words, in the right number.
    expect(await page.locator('.manifest-counts').first().textContent()).toContain('1 of 8 places · 1 booking ·');
    expect(await page.getByLabel('Day totals').textContent()).toContain('1 participant in 1 booking,');
    await page.getByRole('button', { name: 'Check in Marta Silva' }).click();
    const undo = page.getByRole('button', { name: 'Undo check-in of Marta Silva' });
    await undo.waitFor();
    expect(await focusedLabel(page)).toBe('Undo check-in of Marta Silva');
    await expect.poll(() => undo.getAttribute('aria-disabled')).toBe('false');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Check in Marta Silva' }).waitFor();
    expect(await focusedLabel(page)).toBe('Check in Marta Silva');
  });

  it('opens Availability on today (the account’s), whatever the weekday', async () => {
    const page = browser.phone;
    await page.goto(`${operatorApi.url}/console/availability`);
    await page.locator('section.day').first().waitFor();
    expect(await page.locator('section.day').first().getAttribute('aria-label')).toBe(date);
    expect(await page.locator('section.day').count()).toBe(7);
  });

  it('keeps the phone header to two rows: the pages in one row that scrolls sideways', async () => {
    const page = browser.phone;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').waitFor();
    await signIn(page, operatorApi.url, operator.ownerEmail);
    const nav = page.getByRole('navigation', { name: 'Pages' });
    const tops = await nav.getByRole('link').evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    expect(await nav.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    const header = await page.locator('header.topbar').boundingBox();
    expect(header!.height).toBeLessThan(110);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'header', false);
  });

  it('shows the sale form’s limits before anything is sent: the party size, then the places left', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/sale?ActivityID=${operator.activity.activityId}&Date=${date}&Time=23:59`);
    await page.getByLabel('Timeslot').locator('option[value="23:59"]').waitFor({ state: 'attached' });
    expect(await page.locator('#participants-limit').textContent()).toBe('At most 8 per booking; 7 left.');
    await page.getByLabel('Participants').fill('20');
    expect(await page.getByRole('alert').textContent()).toBe('At most 8 per booking for this activity.');
    expect(await page.locator('.sale-total').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sell' }).isDisabled()).toBe(true);
    await page.getByLabel('Participants').fill('8');
    expect(await page.getByRole('alert').textContent()).toBe('Only 7 places left at 23:59.');
    await page.getByLabel('Participants').fill('2');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.locator('.sale-total').textContent()).toContain('2 ×');
    await screenshot(page, 'new-sale-limits');
  });
});
