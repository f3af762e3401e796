// The console in a real headless Chromium, against the real operator and partner APIs: sign-in, bookings of every
// channel (a partner's appearing without a reload), filters in the URL, CSV export, the detail panel, and a hostile
// customer name that must stay text. Screenshots of each page at 1280 and 390 px go to test/screenshots/.
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { bookDirect, createConsoleOperator, createSlot, dayFromNow, PASSWORD, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
const date = dayFromNow(2);
const XSS = '<img src=x onerror=alert(1)>';

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  await createSlot(db.pool, operator.activity, date, '10:00', 8);
  await createSlot(db.pool, operator.activity, date, '14:00', 8);
  await bookDirect(db.pool, operator, { date, time: '10:00' }, 'online', { FirstName: 'Marta', LastName: 'Silva' }, 'stripe_pi_001');
  await bookDirect(db.pool, operator, { date, time: '14:00' }, 'pos', { FirstName: 'João', LastName: 'Pereira' }, 'POS-0001');
});

async function partnerBooking(firstName: string, paymentReference: string) {
  const answer = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
    key: operator.ota,
    body: { ActivityID: operator.activity.activityId, Date: date, Time: '10:00', Participants: 1, Customer: { FirstName: firstName, LastName: 'Partner', Email: 'p@example.com' }, PaymentReference: paymentReference },
  });
  expect(answer.status).toBe(201);
  return answer.body.Reference as string;
}

describe('console: sign-in and bookings', () => {
  it('signs in: a wrong password shows the problem, the right one opens the bookings', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings`);
    await page.getByRole('heading', { name: 'Operator console' }).waitFor();
    await screenshot(page, 'sign-in');
    await page.getByLabel('E-mail').fill(operator.ownerEmail);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The e-mail address or the password is wrong.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain(operator.ownerEmail);
    // The session cookie is out of the page's reach.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    await signIn(browser.phone, operatorApi.url, operator.staffEmail);
    await screenshot(browser.phone, 'sign-in-done');
  });

  it('shows a partner booking beside the online and point-of-sale ones within 2 seconds, without a reload', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings`);
    await page.locator('tr[data-reference]').first().waitFor();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const reference = await partnerBooking('Olga', 'PAY-OTA-777');
    const started = Date.now();
    const row = page.locator(`tr[data-reference="${reference}"]`);
    await row.waitFor({ timeout: 2000 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    expect(await row.locator('.payment-reference').textContent()).toBe('PAY-OTA-777');
    expect(await row.locator('.badge').textContent()).toBe('ota');
    const badges = await page.locator('tbody .badge').allTextContents();
    expect(new Set(badges)).toEqual(new Set(['ota', 'online', 'pos']));
    await screenshot(page, 'bookings');
    await browser.phone.goto(`${operatorApi.url}/console/bookings`);
    await browser.phone.locator(`tr[data-reference="${reference}"]`).waitFor();
    await screenshot(browser.phone, 'bookings');
  });

  it('shows a hostile customer name as text and runs nothing', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings`);
    const reference = await partnerBooking(XSS, 'PAY-XSS');
    const row = page.locator(`tr[data-reference="${reference}"]`);
    await row.waitFor({ timeout: 3000 });
    expect(await row.locator('.customer').textContent()).toBe(`${XSS} Partner`);
    await row.click();
    await page.getByRole('complementary', { name: `Booking ${reference}` }).getByText(XSS).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    expect(browser.dialogs).toEqual([]);
  });

  it('filters through the URL, exports the same rows as CSV, and opens a booking from the keyboard', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings`);
    await page.getByLabel('Channel').selectOption('pos');
    await expect.poll(() => new URL(page.url()).searchParams.get('Channel')).toBe('pos');
    await expect.poll(async () => new Set(await page.locator('tbody .badge').allTextContents())).toEqual(new Set(['pos']));
    // The link can be shared: opening it anew shows the same filter.
    await page.goto(page.url());
    expect(await page.getByLabel('Channel').inputValue()).toBe('pos');
    const shown = await page.locator('tr[data-reference]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reference')));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.split('\r\n').filter((l) => l !== '');
    expect(lines[0]).toMatch(/^Reference,Status,Channel,/);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(shown);

    await page.getByLabel('Search').fill('pereira');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('Q')).toBe('pereira');
    await page.locator('tr[data-reference]').first().focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary');
    await panel.getByText('João Pereira').waitFor();
    expect(await panel.textContent()).toContain('POS-0001');
    await screenshot(page, 'booking-detail');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.count()).toBe(0);
  });

  it('serves the console with a Content-Security-Policy that allows no inline script', async () => {
    const answer = await fetch(`${operatorApi.url}/console/bookings`);
    const csp = answer.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await answer.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/https?:\/\//);
  });
});
