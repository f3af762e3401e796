// One person, several accounts, in Chromium at 1280 and 390 px: the owner of a second account invites a person who
// signs in to a first one already; the person opens the link on a phone and joins with the password they have (the
// join page asks for it, not for a new one); signing in then asks which account to work in, by name; the header's
// switcher (shown only with several accounts) moves between them, and each account's bookings are its own. Long account
// names; no page wider than its viewport. Screenshots under test/screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { consoleLinkIn, deliverMailOnce, startSmtpCatcher, type SmtpCatcher } from '@backbone/test-apps/mail-worker';
import {
  bookDirect,
  createConsoleOperator,
  createSlot,
  dayFromNow,
  layoutProblems,
  PASSWORD,
  screenshot,
  signIn,
  useConsole,
  type ConsoleOperator,
} from './support.js';

const { db, operatorApi, browser } = useConsole();

let first: ConsoleOperator;
let second: ConsoleOperator;
let catcher: SmtpCatcher;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  first = await createConsoleOperator(db.pool, 'Fjord Kayaks of Geirangerfjorden and Sunnylvsfjorden');
  second = await createConsoleOperator(db.pool, 'Atlantic Coast Sea Kayaking Expeditions of Lisbon and the Algarve');
  const date = dayFromNow(2);
  await createSlot(db.pool, first.activity, date, '09:00');
  await createSlot(db.pool, second.activity, date, '09:00');
  await bookDirect(db.pool, first, { date, time: '09:00' }, 'online', { FirstName: 'Astrid', LastName: 'Of-The-Fjords' });
  await bookDirect(db.pool, second, { date, time: '09:00' }, 'online', { FirstName: 'Tiago', LastName: 'Of-The-Atlantic' });
});
afterAll(() => catcher?.close());

async function linksTo(to: string): Promise<string[]> {
  await deliverMailOnce(db.pool, catcher.url, `${operatorApi.url}/`);
  return catcher.messages.filter((m) => m.envelope.to.includes(to)).flatMap((m) => consoleLinkIn(m.decoded)?.link ?? []);
}

async function signInToChoice(page: Page, email: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${operatorApi.url}/console/bookings`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Choose an account' }).waitFor();
}

/** The bookings page shows this account's guest and not the other's. */
async function expectBookingsOf(page: Page, own: string, others: string): Promise<void> {
  await page.getByRole('heading', { name: 'Bookings' }).waitFor();
  await page.getByText(own, { exact: false }).first().waitFor();
  expect(await page.getByText(others, { exact: false }).count()).toBe(0);
}

describe('console: one person, several accounts', () => {
  it('joins a second account with the password the person has, chooses after signing in and switches from the header', async () => {
    const person = first.ownerEmail;

    // The second account's owner invites an address that signs in elsewhere: the answer is any invitation's.
    const owner = browser.desktop;
    await signIn(owner, operatorApi.url, second.ownerEmail);
    expect(await owner.locator('.account-switch').count()).toBe(0);
    await owner.goto(`${operatorApi.url}/console/users`);
    await owner.getByLabel('Name').fill('Ingrid Marie Solheim-Albuquerque');
    await owner.getByLabel('E-mail').fill(person);
    await owner.getByLabel('Role').selectOption('owner');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText(`Invitation sent to ${person}.`).waitFor();
    await owner.context().clearCookies();

    // On a phone: the join page asks for the password the person has, and never for a new one.
    const phone = browser.phone;
    await phone.context().clearCookies();
    const [link] = await linksTo(person);
    await phone.goto(link!);
    await phone.getByRole('heading', { name: 'Join the console' }).waitFor();
    await phone.getByText('You sign in to the console already', { exact: false }).waitFor();
    expect(await phone.getByLabel('New password', { exact: true }).count()).toBe(0);
    await phone.getByLabel('Your password').fill('not my password at all');
    await phone.getByRole('button', { name: 'Join and sign in' }).click();
    await phone.getByText('Password is not the one you sign in to the console with', { exact: false }).waitFor();
    expect(await layoutProblems(phone)).toEqual([]);
    await screenshot(phone, 'people-join-with-password');
    await phone.getByLabel('Your password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Join and sign in' }).click();
    await expectBookingsOf(phone, 'Of-The-Atlantic', 'Of-The-Fjords');
    const phoneSwitch = phone.locator('.account-switch select');
    expect(await phoneSwitch.inputValue()).toBe(second.account.id);
    expect(await layoutProblems(phone)).toEqual([]);
    await screenshot(phone, 'people-joined');

    // Signing in: the choice, by name, before anything else.
    const desk = browser.desktop;
    await signInToChoice(desk, person);
    const choices = desk.locator('.account-choice');
    expect(await choices.allTextContents()).toEqual([second.account.name, first.account.name]);
    expect(await desk.getByRole('link', { name: 'Bookings' }).count()).toBe(0);
    expect(await layoutProblems(desk)).toEqual([]);
    await screenshot(desk, 'people-choose-account');
    await desk.getByRole('button', { name: first.account.name }).click();
    await expectBookingsOf(desk, 'Of-The-Fjords', 'Of-The-Atlantic');
    const deskSwitch = desk.locator('.account-switch select');
    expect(await deskSwitch.inputValue()).toBe(first.account.id);

    // Switching from the header, back and forth: each account's bookings only, the Users page each account's own.
    await deskSwitch.selectOption(second.account.id);
    await expect.poll(() => deskSwitch.inputValue()).toBe(second.account.id);
    await expectBookingsOf(desk, 'Of-The-Atlantic', 'Of-The-Fjords');
    await desk.goto(`${operatorApi.url}/console/users`);
    await desk.locator('tr', { hasText: second.staffEmail }).waitFor();
    expect(await desk.locator('tr', { hasText: first.staffEmail }).count()).toBe(0);
    await deskSwitch.selectOption(first.account.id);
    await desk.locator('tr', { hasText: first.staffEmail }).waitFor();
    expect(await desk.locator('tr', { hasText: second.staffEmail }).count()).toBe(0);
    expect(new URL(desk.url()).pathname).toBe('/console/users');
    await desk.goto(`${operatorApi.url}/console/bookings`);
    await expectBookingsOf(desk, 'Of-The-Fjords', 'Of-The-Atlantic');
    expect(await layoutProblems(desk)).toEqual([]);
    await screenshot(desk, 'people-switched');

    // The phone: the choice at 390 px, then the switcher in the narrow header.
    await signInToChoice(phone, person);
    expect(await layoutProblems(phone)).toEqual([]);
    await screenshot(phone, 'people-choose-account');
    await phone.getByRole('button', { name: second.account.name }).click();
    await expectBookingsOf(phone, 'Of-The-Atlantic', 'Of-The-Fjords');
    await phoneSwitch.selectOption(first.account.id);
    await expectBookingsOf(phone, 'Of-The-Fjords', 'Of-The-Atlantic');
    expect(await layoutProblems(phone)).toEqual([]);
    await screenshot(phone, 'people-switched');
    expect(browser.dialogs).toEqual([]);
  });
});
