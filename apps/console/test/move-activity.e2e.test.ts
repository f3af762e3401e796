// Moving a booking to another activity from the panel in Chromium at 1280 and 390 px (issue 39, the desk: the customer
// changed their mind): the other activity's open timeslots with their places, what the move does to the price and
// the answers said before it is made, then the booking in its new timeslot and the old places freed.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity } from '@backbone/testkit';
import type { Activity } from '@backbone/domain';
import { bookDirect, createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
let sunset: Activity;
let date: string;
const references: string[] = [];

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  sunset = await createTestActivity(db.pool, operator.account.id, {
    name: 'Sunset paddle with tapas on the beach',
    timeZone: 'Europe/Lisbon',
    priceMinor: 7000,
  });
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 2 * 86_400_000));
  await createSlot(db.pool, operator.activity, date, '10:00', 8);
  await createSlot(db.pool, sunset, date, '19:00', 8);
  for (const name of ['Desk', 'Phone']) {
    references.push((await bookDirect(db.pool, operator, { date, time: '10:00' }, 'pos', { FirstName: 'Changed', LastName: `Mind ${name}` })).Reference);
  }
});

describe('console: move a booking to another activity', () => {
  it('moves it from the panel, saying the new price first', async () => {
    for (const [i, page] of [browser.desktop, browser.phone].entries()) {
      const reference = references[i]!;
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
      await panel.getByRole('button', { name: 'Reschedule' }).click();
      const form = panel.getByRole('form', { name: 'Reschedule the booking' });
      await form.getByLabel('Activity').selectOption(sunset.activityId);
      await form.getByLabel('New time').locator('option[value="19:00"]').waitFor({ state: 'attached' });
      expect(await form.getByRole('status').textContent()).toContain('the booking takes its price (€70.00 for 1)');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'move-activity');
      await form.getByRole('button', { name: 'Move booking' }).click();
      await panel.getByText(`Sunset paddle with tapas on the beach, ${date} 19:00`).waitFor();
      const { rows } = await db.pool.query(
        `SELECT a.name, t.booked FROM bookings b JOIN activities a ON a.id = b.activity_id JOIN timeslots t ON t.id = b.timeslot_id WHERE b.reference = $1`,
        [reference],
      );
      expect(rows[0]).toEqual({ name: 'Sunset paddle with tapas on the beach', booked: i + 1 });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
