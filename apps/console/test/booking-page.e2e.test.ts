// The console's Booking page screen over the real operator API: an owner turns the page on with a slug, an embed
// origin and a note, and the partner API's shop API then opens that page; a slug another account has is refused with
// the API's problem and changes nothing; staff see the link but not the settings.
import { beforeAll, describe, expect, it } from 'vitest';
import { findBookingPageSettings, saveBookingPage } from '@backbone/db';
import { createTestAccount, request } from '@backbone/testkit';
import { createConsoleOperator, layoutProblems, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();
let operator: ConsoleOperator;
const TAKEN = 'someone-elses-page';

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool, 'Harbour Kayaks');
  const other = await createTestAccount(db.pool, { name: 'Other Co.' });
  const saved = await saveBookingPage(db.pool, other.account.id, { enabled: true, slug: TAKEN });
  if (typeof saved === 'string') throw new Error(saved);
});

describe('console: booking page settings', () => {
  it('an owner turns the page on; the shop API opens it with the note', async () => {
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.ownerEmail);
    await page.getByRole('link', { name: 'Booking page' }).click();
    await page.getByRole('heading', { name: 'Booking page' }).waitFor();
    await page.getByText('The booking page has no address yet').waitFor();
    expect((await request(partnerApi.url, 'GET', '/api/v2/shop/harbour-kayaks')).status).toBe(404);

    await page.getByLabel('Customers can book online').check();
    await page.getByLabel('Slug').fill('harbour-kayaks');
    await page.getByLabel('Sites allowed to embed the page').fill('https://www.harbour-kayaks.example/');
    await page.getByLabel('Note shown on the page').fill('Meet at the blue hut.');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.getByText(/Customers book at .*\/book\/harbour-kayaks/).waitFor();
    expect(await page.locator('.snippet').innerText()).toContain('/book/harbour-kayaks');
    expect(await layoutProblems(page)).toEqual([]);

    expect(await findBookingPageSettings(db.pool, operator.account.id)).toMatchObject({
      enabled: true,
      slug: 'harbour-kayaks',
      embedOrigins: ['https://www.harbour-kayaks.example'],
      note: 'Meet at the blue hut.',
    });
    const shop = await request(partnerApi.url, 'GET', '/api/v2/shop/harbour-kayaks');
    expect(shop.status).toBe(200);
    expect(shop.body).toMatchObject({ Slug: 'harbour-kayaks', AccountName: 'Harbour Kayaks', Note: 'Meet at the blue hut.' });
  });

  it("refuses a slug another account has, with the API's problem, and keeps the page as it was", async () => {
    const page = browser.desktop;
    await page.getByLabel('Slug').fill(TAKEN);
    await page.getByRole('button', { name: 'Save' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /slug/i });
    await alert.waitFor();
    expect((await findBookingPageSettings(db.pool, operator.account.id))!.slug).toBe('harbour-kayaks');
  });

  it('shows staff the link and no settings', async () => {
    const page = browser.phone;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/booking-page`);
    await page.getByText(/Customers book at .*\/book\/harbour-kayaks/).waitFor();
    expect(await page.getByRole('form', { name: 'Booking page settings' }).count()).toBe(0);
    expect(await layoutProblems(page)).toEqual([]);
  });
});
