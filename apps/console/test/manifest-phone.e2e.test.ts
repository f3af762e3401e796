// The manifest at the door on a phone (390 px) and at 1280 px (issue 39.12): the timeslots without bookings folded
// away behind a toggle, a search over the day's guests, the phone number a tel: link, every control at least 44x44 px,
// a print of only the timeslots that have guests, and a party that arrives in part (3 of 4) counted guest by guest.
import { beforeAll, describe, expect, it } from 'vitest';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
let date: string;
let silva: string;
let family: string;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 3 * 86_400_000));
  for (const time of ['08:00', '09:00', '10:00', '11:00', '12:00', '14:00', '16:00']) await createSlot(db.pool, operator.activity, date, time, 8);
  const customer = { FirstName: 'Maria da Conceição', LastName: 'Vasconcelos e Silva', Phone: '+351 912 345 678' };
  silva = (await bookDirect(db.pool, operator, { date, time: '14:00' }, 'pos', customer)).Reference;
  await bookDirect(db.pool, operator, { date, time: '16:00' }, 'online', { FirstName: 'Tom', LastName: 'Baker' });
  await createSlot(db.pool, operator.activity, date, '18:00', 8);
  family = (await bookDirect(db.pool, operator, { date, time: '18:00' }, 'online', { FirstName: 'Ana', LastName: 'Family' })).Reference;
  await db.pool.query(`UPDATE bookings SET participants = 4 WHERE reference = $1`, [family]);
  await db.pool.query(`UPDATE timeslots SET booked = booked + 3 WHERE id = (SELECT timeslot_id FROM bookings WHERE reference = $1)`, [family]);
});

const box = async (locator: import('playwright-core').Locator) => (await locator.boundingBox())!;

describe('console: the manifest at the door', () => {
  it('checks a party in guest by guest: 3 of 4, then the fourth; the counts follow', async () => {
    const page = browser.phone;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/manifest?Date=${date}`);
    const row = page.locator(`tr[data-reference="${family}"]`);
    await row.getByRole('button', { name: 'Check in Ana Family' }).click();
    const count = row.locator('.arrived-count');
    await count.waitFor();
    expect(await count.textContent()).toBe('4 of 4');
    const less = row.getByRole('button', { name: "One less of Ana Family's party arrived" });
    const more = row.getByRole('button', { name: "One more of Ana Family's party arrived" });
    for (const target of [less, more]) {
      const box = (await target.boundingBox())!;
      expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(44);
    }
    expect(await more.isDisabled()).toBe(true);
    await less.click();
    await expect.poll(() => count.textContent()).toBe('3 of 4');
    const slot = page.locator('.manifest-slot', { has: row });
    await expect.poll(() => slot.locator('[data-checked-in-count]').getAttribute('data-checked-in-count')).toBe('3');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'manifest-partial-check-in');
    await expect.poll(() => more.isDisabled()).toBe(false);
    await more.click();
    await expect.poll(() => count.textContent()).toBe('4 of 4');
    await expect.poll(() => slot.locator('[data-checked-in-count]').getAttribute('data-checked-in-count')).toBe('4');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').waitFor();
  });

  it('folds the empty timeslots away, finds a guest, calls them with a tap, and has thumb-sized controls', async () => {
    for (const page of [browser.phone, browser.desktop]) {
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(`${operatorApi.url}/console/manifest?Date=${date}`);
      await page.locator('.manifest-slot').first().waitFor();
      // Only the three timeslots with guests, the first guest at once; the five others behind a toggle.
      expect(await page.locator('.manifest-slot').count()).toBe(3);
      const toggle = page.getByLabel('Show the 5 timeslots without bookings');
      await toggle.check();
      await expect.poll(() => page.locator('.manifest-slot').count()).toBe(8);
      expect(page.url()).toContain('Empty=1');
      await toggle.uncheck();
      await expect.poll(() => page.locator('.manifest-slot').count()).toBe(3);
      const call = page.locator(`tr[data-reference="${silva}"] a.phone`);
      expect(await call.getAttribute('href')).toBe('tel:+351912345678');
      const checkIn = page.getByRole('button', { name: /^Check in Maria/ });
      for (const target of [checkIn, call]) expect((await box(target)).height).toBeGreaterThanOrEqual(44);
      await checkIn.click();
      const undo = page.getByRole('button', { name: /^Undo check-in of Maria/ });
      await undo.waitFor();
      const undoBox = await box(undo);
      expect(undoBox.width).toBeGreaterThanOrEqual(44);
      expect(undoBox.height).toBeGreaterThanOrEqual(44);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'manifest-door');
      await undo.click();
      await checkIn.waitFor();
      // The search: accents and case aside, over names, reference and phone.
      await page.getByLabel('Find a guest').fill('conceicao silva');
      await expect.poll(() => page.locator('.manifest-table tbody tr').count()).toBe(1);
      expect(await page.locator('.manifest-slot').count()).toBe(1);
      await page.getByLabel('Find a guest').fill('912 345');
      await expect.poll(() => page.locator(`.manifest-table tbody tr[data-reference="${silva}"]`).count()).toBe(1);
      await page.getByLabel('Find a guest').fill('nobody');
      await page.getByText('No booking matches the search.').waitFor();
      await page.getByLabel('Find a guest').fill('');
      await expect.poll(() => page.locator('.manifest-slot').count()).toBe(3);
      // The print: the empty timeslots stay out even when shown on screen.
      await toggle.check();
      await expect.poll(() => page.locator('.manifest-slot').count()).toBe(8);
      await page.emulateMedia({ media: 'print' });
      expect(await page.locator('.manifest-slot:visible').count()).toBe(3);
      await page.emulateMedia({ media: 'screen' });
      await toggle.uncheck();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
