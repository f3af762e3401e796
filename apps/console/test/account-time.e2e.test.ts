// Every time in the console in the account's zone, whatever the browser's (issue 39.6): a browser in a zone far from
// the account's (Lisbon) sees the booking's booked-at and check-in, its history, the manifest's check-in, the audit log,
// the keys and the users in Lisbon's clock, one 24-hour format, the zone named; Availability, the manifest and the sale
// open on Lisbon's today even when the browser is already on another day.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

// A zone whose date differs from Lisbon's at this hour: 14 hours ahead from late morning (UTC), 11 behind before.
const BROWSER_ZONE = new Date().getUTCHours() >= 11 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
const ACCOUNT_ZONE = 'Europe/Lisbon';

const { db, operatorApi, browser } = useConsole({ timezoneId: BROWSER_ZONE });

const clockIn = (zone: string, iso: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
const dateIn = (zone: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());

let operator: ConsoleOperator;
let reference: string;
let date: string;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  date = dateIn(ACCOUNT_ZONE);
  await createSlot(db.pool, operator.activity, date, '23:59', 8);
  reference = (await bookDirect(db.pool, operator, { date, time: '23:59' }, 'online', { FirstName: 'Marta', LastName: 'Silva' })).Reference;
});

describe("console: times in the account's zone", () => {
  it('shows booked-at, check-in and history in the account’s clock, naming the zone the browser does not share', async () => {
    expect(dateIn(BROWSER_ZONE)).not.toBe(date);
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.ownerEmail);
    expect(await page.locator('header .zone').textContent()).toBe(`Times in ${ACCOUNT_ZONE}`);
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = page.locator('.detail-panel');
    await panel.getByRole('button', { name: 'Check in' }).click();
    await panel.getByRole('button', { name: 'Undo check-in' }).waitFor();
    const checkedIn = (await panel.locator('[data-checked-in]').getAttribute('data-checked-in'))!;
    const checkedInText = (await panel.locator('[data-checked-in]').textContent())!;
    expect(checkedInText).toContain(clockIn(ACCOUNT_ZONE, checkedIn));
    expect(checkedInText).not.toContain(clockIn(BROWSER_ZONE, checkedIn));
    // One format: a 24-hour clock (never "12:44 AM"), and the zone named.
    expect(checkedInText).not.toMatch(/AM|PM/);
    expect(checkedInText).toContain(ACCOUNT_ZONE);
    expect(checkedInText).not.toMatch(/GMT/);
    const bookedAt = (await panel.locator('dd time').first().getAttribute('datetime'))!;
    expect(await panel.locator('dd time').first().textContent()).toContain(clockIn(ACCOUNT_ZONE, bookedAt));
    const historyTime = panel.locator('.history time').last();
    await historyTime.waitFor();
    expect(await historyTime.textContent()).toContain(clockIn(ACCOUNT_ZONE, (await historyTime.getAttribute('datetime'))!));
    await screenshot(page, 'account-time-panel');
  });

  it('shows the manifest’s check-in time in the account’s clock and opens dated pages on the account’s today', async () => {
    const page = browser.phone;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/manifest`);
    const checked = page.locator(`tr[data-reference="${reference}"] .checked-in time`);
    await checked.waitFor();
    expect(await checked.textContent()).toContain(clockIn(ACCOUNT_ZONE, (await checked.getAttribute('datetime'))!));
    expect(await page.locator('input[name=Date]').inputValue()).toBe(date);
    await page.goto(`${operatorApi.url}/console/availability`);
    await page.locator('section.day').first().waitFor();
    expect(await page.locator('section.day').first().getAttribute('aria-label')).toBe(date);
    await page.goto(`${operatorApi.url}/console/sale`);
    expect(await page.locator('input[name=Date]').inputValue()).toBe(date);
    expect(await layoutProblems(page)).toEqual([]);
    expect(await page.locator('header .zone').isVisible()).toBe(true);
    expect((await page.locator('header.topbar').boundingBox())!.height).toBeLessThan(120);
    await screenshot(page, 'account-time-header', false);
  });

  it('shows the audit log, keys and users in the same format', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/audit`);
    const at = page.locator('time').first();
    await at.waitFor();
    expect(await at.textContent()).toContain(clockIn(ACCOUNT_ZONE, (await at.getAttribute('datetime'))!));
    await page.goto(`${operatorApi.url}/console/keys`);
    const created = page.locator('td[data-label="Created"]').first();
    await created.waitFor();
    expect(await created.textContent()).not.toMatch(/AM|PM/);
    expect(await created.textContent()).toContain(ACCOUNT_ZONE);
  });
});
