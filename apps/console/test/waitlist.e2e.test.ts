// A timeslot's waitlist in the console, as staff in Chromium at 1280 and 390 px over the real operator API: reached from
// the slot on Availability; a caller added with long real-world details; each entry's position, party, contact and
// state; an offer by hand once places free up, a refusal shown when none are free, remove, and book by hand.
import { beforeAll, describe, expect, it } from 'vitest';
import { cancelBooking } from '@backbone/use-cases';
import { bookDirect, createConsoleOperator, createSlot, dayFromNow, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();
let operator: ConsoleOperator;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool, 'Fjord Kayaks of Geirangerfjorden and Sunnylvsfjorden');
});

describe.each([
  ['desktop', 3],
  ['phone', 4],
] as const)('console: a waitlist at %s width', (width, days) => {
  it('adds callers, offers freed places, removes and books by hand', async () => {
    const page = browser[width];
    const date = dayFromNow(days);
    await createSlot(db.pool, operator.activity, date, '10:00', 2);
    const taken = [
      await bookDirect(db.pool, operator, { date, time: '10:00' }, 'online', { FirstName: 'Early', LastName: 'One' }),
      await bookDirect(db.pool, operator, { date, time: '10:00' }, 'online', { FirstName: 'Early', LastName: 'Two' }),
    ];
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/availability?ActivityID=${operator.activity.activityId}&Week=${date}`);
    await page.getByRole('link', { name: `Waitlist of ${date} 10:00` }).click();
    await page.getByRole('heading', { name: /^Waitlist of / }).waitFor();
    await page.getByText('Nobody is waiting for this timeslot.').waitFor();

    const addCaller = async (first: string, last: string, email: string, phone: string, party: string) => {
      const form = page.getByRole('form', { name: 'Add a caller' });
      await form.getByLabel('Participants').fill(party);
      await form.getByLabel('First name').fill(first);
      await form.getByLabel('Last name').fill(last);
      await form.getByLabel(/E-mail/).fill(email);
      await form.getByLabel(/Phone/).fill(phone);
      await form.getByRole('button', { name: 'Add to the waitlist' }).click();
      await page.getByRole('cell', { name: email }).waitFor();
    };
    await addCaller('María de los Ángeles', 'Fernández-Villaverde y Altamirano', `maria.angeles.fernandez-${width}@correo.example.com`, '+34 612 345 678', '2');
    await addCaller('Bjørn', 'Ødegård', `bjorn-${width}@example.no`, '+47 912 34 567', '1');
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toMatch(/1\s+2\s+María de los Ángeles/);
    expect(await rows.nth(1).innerText()).toContain('Waiting');

    // No free places: the offer's refusal is shown, nothing changes.
    await page.getByRole('button', { name: 'Offer places to Bjørn Ødegård' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /Not enough places/ })
      .waitFor();

    await cancelBooking(
      { pool: db.pool },
      { owner: { accountId: operator.account.id, partnerId: null }, reference: taken[0]!.Reference },
      {},
      { kind: 'system' },
    );
    await page.getByRole('button', { name: 'Offer places to Bjørn Ødegård' }).click();
    await page.getByRole('cell', { name: /Offer sent until/ }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist');

    await page.getByRole('button', { name: 'Remove Bjørn Ødegård' }).click();
    await page.getByRole('cell', { name: 'Removed' }).waitFor();
    await cancelBooking(
      { pool: db.pool },
      { owner: { accountId: operator.account.id, partnerId: null }, reference: taken[1]!.Reference },
      {},
      { kind: 'system' },
    );
    await page.getByRole('button', { name: 'Book María de los Ángeles Fernández-Villaverde y Altamirano' }).click();
    await page.getByRole('cell', { name: /Booked/ }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'waitlist-booked');
    const { rows: booked } = await db.pool.query<{ booked: number }>(`SELECT booked FROM timeslots WHERE activity_id = $1 AND local_date = $2`, [
      operator.activity.id,
      date,
    ]);
    expect(booked).toEqual([{ booked: 2 }]);
  }, 120_000);
});
