// Overbooking by choice in Chromium at 1280 and 390 px (issue 39): a party larger than the places left offers an owner
// "Sell anyway (overbook by N)" and a confirmation that says what it does; the sale then shows 8/6 in Availability and
// in the audit log; staff see only the refusal.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
const lisbon = (offsetDays: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + offsetDays * 86_400_000));
const date = lisbon(3);

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  await createSlot(db.pool, operator.activity, date, '10:00', 6);
  await createSlot(db.pool, operator.activity, date, '14:00', 6);
  await bookDirect(db.pool, operator, { date, time: '10:00' }, 'online', { FirstName: 'Early', LastName: 'Bird' });
});

const saleUrl = (time: string) => `${operatorApi.url}/console/sale?ActivityID=${operator.activity.activityId}&Date=${date}&Time=${time}`;

async function fillSale(page: import('playwright-core').Page, participants: number) {
  const form = page.getByRole('form', { name: 'Point-of-sale sale' });
  await form.getByLabel('Timeslot').locator('option', { hasText: 'left' }).first().waitFor({ state: 'attached' });
  await form.getByLabel('Participants').fill(String(participants));
  await form.getByLabel('First name').fill('Bartholomew Maximilian');
  await form.getByLabel('Last name').fill('Featherstonehaugh-Worthington');
  return form;
}

describe('console: overbooking by choice', () => {
  it('lets staff see only the refusal', async () => {
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(saleUrl('10:00'));
      const form = await fillSale(page, 8);
      await form.getByText('Only 5 places left at 10:00.').waitFor();
      expect(await form.getByRole('button', { name: 'Sell', exact: true }).isDisabled()).toBe(true);
      expect(await form.getByRole('button', { name: /Sell anyway/ }).count()).toBe(0);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });

  it('offers an owner "Sell anyway (overbook by N)" with a confirmation, and the slot then shows its overbooking', async () => {
    for (const [page, time, participants, over] of [
      [browser.desktop, '10:00', 7, 2],
      [browser.phone, '14:00', 8, 2],
    ] as const) {
      await signIn(page, operatorApi.url, operator.ownerEmail);
      await page.goto(saleUrl(time));
      const form = await fillSale(page, participants);
      const anyway = form.getByRole('button', { name: `Sell anyway (overbook by ${over})` });
      await anyway.click();
      const confirm = form.getByRole('alertdialog', { name: `Overbook ${time} by ${over}?` });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(`${over} past its capacity`);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'sale-overbook-confirm');
      await confirm.getByRole('button', { name: 'Keep within capacity' }).click();
      expect(await confirm.count()).toBe(0);
      await anyway.click();
      await confirm.getByRole('button', { name: `Overbook by ${over}` }).click();
      const sold = page.getByRole('status').filter({ hasText: 'Sold' });
      await sold.waitFor();

      await page.goto(`${operatorApi.url}/console/availability?ActivityID=${operator.activity.activityId}&Date=${date}`);
      await page
        .getByText(`${6 + over}/6`)
        .first()
        .waitFor();
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'availability-overbooked');

      await page.goto(`${operatorApi.url}/console/audit?Action=booking.overbooked`);
      const row = page.locator('tr[data-action="booking.overbooked"]').first();
      await row.waitFor();
      const text = await row.textContent();
      for (const part of ['Sold past capacity', `Over capacity: ${over}`, `Booked: ${6 + over} of 6`, `Participants: ${participants}`])
        expect(text).toContain(part);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'audit-overbooked');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
