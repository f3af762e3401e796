// Risky availability edits in Chromium at 1280 and 390 px (issue 39.11): closing a timeslot with bookings names the
// guests, links each booking (to move or cancel it) and asks before closing; a capacity below what is booked is
// refused before sending; one far above the usual asks first; an empty timeslot closes at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
let date: string;
const slots: Record<string, number> = {};

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 2 * 86_400_000));
  for (const time of ['10:00', '11:00', '12:00', '13:00']) slots[time] = (await createSlot(db.pool, operator.activity, date, time, 8)).id;
  for (const time of ['10:00', '12:00']) {
    await bookDirect(db.pool, operator, { date, time }, 'online', { FirstName: 'Maria da Conceição', LastName: 'Vasconcelos e Silva' });
    await bookDirect(db.pool, operator, { date, time }, 'pos', { FirstName: 'Tom', LastName: 'Baker' });
  }
});

const stored = async (time: string) =>
  (await db.pool.query(`SELECT status, capacity FROM timeslots WHERE id = $1`, [slots[time]])).rows[0] as { status: string; capacity: number };

describe('console: risky availability edits', () => {
  it('names the guests before closing a booked timeslot, and checks a capacity before sending it', async () => {
    for (const [page, booked, empty] of [
      [browser.desktop, '10:00', '11:00'],
      [browser.phone, '12:00', '13:00'],
    ] as const) {
      await signIn(page, operatorApi.url, operator.ownerEmail);
      await page.goto(`${operatorApi.url}/console/availability?Week=${date}`);
      const slot = page.locator(`li[data-timeslot="${slots[booked]}"]`);
      await slot.waitFor();
      await slot.getByRole('button', { name: 'Close' }).click();
      const dialog = slot.getByRole('alertdialog');
      await dialog.getByRole('link', { name: 'Tom Baker' }).waitFor();
      expect(await dialog.textContent()).toContain(`2 guests booked at ${booked}.`);
      expect(await dialog.getByRole('link', { name: 'Maria da Conceição Vasconcelos e Silva' }).getAttribute('href')).toMatch(/\/bookings\?Open=/);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'availability-close-booked');
      await dialog.getByRole('button', { name: 'Keep open' }).click();
      expect(await slot.getByRole('alertdialog').count()).toBe(0);
      expect((await stored(booked)).status).toBe('open');
      await slot.getByRole('button', { name: 'Close' }).click();
      await slot.getByRole('button', { name: 'Close with 2 bookings' }).click();
      await slot.locator('.tag', { hasText: 'closed' }).waitFor();
      expect((await stored(booked)).status).toBe('closed');

      // Capacity: below what is booked is said at once and not sent; far above asks; a plain change is made.
      const capacity = slot.getByLabel(`Capacity of ${date} ${booked}`);
      await capacity.fill('1');
      expect(await slot.getByRole('alert').textContent()).toBe('2 places are booked: the capacity cannot go below 2.');
      expect(await slot.getByRole('button', { name: 'Set' }).isDisabled()).toBe(true);
      await capacity.fill('100000');
      await slot.getByRole('button', { name: 'Set' }).click();
      const ask = slot.getByRole('alertdialog', { name: 'Set 100000 places?' });
      expect(await ask.textContent()).toContain('100000 places is far more than the usual 8 (now 8).');
      await ask.getByRole('button', { name: 'Keep 8' }).click();
      expect((await stored(booked)).capacity).toBe(8);
      await capacity.fill('12');
      await slot.getByRole('button', { name: 'Set' }).click();
      await expect.poll(async () => (await stored(booked)).capacity).toBe(12);

      // An empty timeslot has nobody to warn about: it closes at once.
      const quiet = page.locator(`li[data-timeslot="${slots[empty]}"]`);
      await quiet.getByRole('button', { name: 'Close' }).click();
      await quiet.locator('.tag', { hasText: 'closed' }).waitFor();
      expect(await quiet.getByRole('alertdialog').count()).toBe(0);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
