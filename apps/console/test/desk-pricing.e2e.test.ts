// A price set by hand at the desk in Chromium at 1280 and 390 px (issue 39): the sale form sells at a discount with a
// reason (the total follows before selling), the panel shows the price set by hand with the list price and the reason,
// its history says so in money, Edit changes it; staff are told before sending that only owners charge more.
import { beforeAll, describe, expect, it } from 'vitest';
import { createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
const lisbon = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + offsetDays * 86_400_000));
const date = lisbon(4);

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  await createSlot(db.pool, operator.activity, date, '10:00', 40);
});

describe('console: a price set by hand', () => {
  it('sells at a discount with a reason, shows it in the panel and its history, and edits it', async () => {
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(`${operatorApi.url}/console/sale?ActivityID=${operator.activity.activityId}&Date=${date}&Time=10:00`);
      const form = page.getByRole('form', { name: 'Point-of-sale sale' });
      await form.getByLabel('Timeslot').locator('option[value="10:00"]').waitFor({ state: 'attached' });
      await form.getByLabel('Participants').fill('3');
      await form.getByLabel('First name').fill('Maximiliana Alexandrina');
      await form.getByLabel('Last name').fill('Vasconcelos de Albuquerque');
      await form.getByLabel('Charge').selectOption('discount');
      await form.getByLabel('Discount (EUR)').fill('15');
      expect(await form.getByRole('button', { name: 'Sell' }).isDisabled()).toBe(true);
      await form.getByRole('alert').filter({ hasText: 'Say why the price differs' }).waitFor();
      await form.getByLabel('Reason').fill('Returning family, third tour this summer with the whole group');
      expect(await form.locator('.sale-total').getAttribute('data-total-minor')).toBe(String(3 * 4500 - 1500));
      // Staff may not charge more: said before sending.
      await form.getByLabel('Charge').selectOption('total');
      await form.getByLabel('Total (EUR)').fill('200');
      await form.getByText('Only an owner may charge more than the list price.').waitFor();
      expect(await form.getByRole('button', { name: 'Sell' }).isDisabled()).toBe(true);
      await form.getByLabel('Charge').selectOption('discount');
      await form.getByLabel('Discount (EUR)').fill('15');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'sale-discount');
      await form.getByRole('button', { name: 'Sell' }).click();
      const sold = page.getByRole('status').filter({ hasText: 'Sold' });
      await sold.waitFor();
      const reference = (await sold.getByRole('link').textContent())!;
      // The form is back at the list price for the next guest.
      expect(await form.getByLabel('Charge').inputValue()).toBe('list');

      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
      const price = panel.locator('[data-price-total]');
      await price.waitFor();
      expect(await price.getAttribute('data-price-total')).toBe('12000');
      expect(await price.textContent()).toContain('Returning family');
      const repriced = panel.locator('li[data-action="repriced"]');
      await repriced.waitFor();
      expect(await repriced.textContent()).toMatch(/Price set by hand.*Returning family.*Price: €135\.00 → €120\.00/);

      await panel.getByRole('button', { name: 'Edit' }).click();
      const edit = panel.getByRole('form', { name: 'Edit the booking' });
      expect(await edit.getByLabel('Charge').inputValue()).toBe('total');
      expect(await edit.getByLabel('Total (EUR)').inputValue()).toBe('120.00');
      await edit.getByLabel('Total (EUR)').fill('110');
      await edit.getByLabel('Reason').fill('Returning family, and the guide was late');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'booking-price-edit');
      await edit.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => price.getAttribute('data-price-total')).toBe('11000');
      expect(await price.textContent()).toContain('the guide was late');
      await screenshot(page, 'booking-price-panel');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });

  it("shows an owner the audit log's entry in words, money formatted", async () => {
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.ownerEmail);
    await page.goto(`${operatorApi.url}/console/audit?Action=booking.price_changed`);
    const row = page.locator('tr', { hasText: 'Price set by hand' }).first();
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Price: €120\.00 → €110\.00/);
    expect(await row.textContent()).toContain(operator.staffEmail);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'audit-price-set');
  });
});
