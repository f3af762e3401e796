// Users invited by e-mail and passwords reset by e-mail, in Chromium at 1280 and 390 px: the owner invites (long real
// names), resends and revokes on the Users page; the mail worker's delivery sends the e-mail to a real SMTP server (the
// local catcher) and the link is read from the message received; the invitee opens it on a phone, chooses a password
// and is in; a replaced or used link says so in words (expired and revoked ones: the operator API's invitations test);
// "Forgot your password?" answers alike for any address and its link signs in with the new password. No page is wider
// than its viewport. Screenshots under test/screenshots.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLinkIn, deliverMailOnce, startSmtpCatcher, type SmtpCatcher } from '@backbone/test-apps/mail-worker';
import { createConsoleOperator, layoutProblems, PASSWORD, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
let catcher: SmtpCatcher;

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  operator = await createConsoleOperator(db.pool, 'Fjord Kayaks of Geirangerfjorden and Sunnylvsfjorden');
});
afterAll(() => catcher?.close());

/** Sends the due e-mails and answers the console links `to` received so far, oldest first. */
async function linksTo(to: string): Promise<string[]> {
  await deliverMailOnce(db.pool, catcher.url, `${operatorApi.url}/`);
  return catcher.messages.filter((m) => m.envelope.to.includes(to)).flatMap((m) => consoleLinkIn(m.decoded)?.link ?? []);
}

const NEW_PASSWORD = 'a password of my very own';

async function signOut(page: import('playwright-core').Page): Promise<void> {
  await page.context().clearCookies();
}

describe('console: invitations', () => {
  it('lets an owner invite, resend and revoke; the invitee joins from the e-mail on a phone', async () => {
    const suffix = operator.account.id.slice(0, 8);
    const invitee = `maria.da.graca.albuquerque-vasconcelos-${suffix}@kayak-and-canoe-adventures.example.com`;
    const withdrawn = `withdrawn-${suffix}@example.com`;
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.ownerEmail);
    await page.goto(`${operatorApi.url}/console/users`);
    for (const [name, email] of [
      ['Maria da Graça Albuquerque de Vasconcelos e Sá', invitee],
      ['Withdrawn Person', withdrawn],
    ] as const) {
      await page.getByLabel('Name').fill(name);
      await page.getByLabel('E-mail').fill(email);
      await page.getByRole('button', { name: 'Send invitation' }).click();
      await page.getByText(`Invitation sent to ${email}.`).waitFor();
    }
    // An address already in the account is refused beside its field.
    await page.getByLabel('Name').fill('Staff again');
    await page.getByLabel('E-mail').fill(operator.staffEmail);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const beside = page.locator('.field', { hasText: 'E-mail' }).locator('.field-error');
    await expect.poll(() => beside.textContent()).toBe('E-mail is already a user of this account.');

    const first = await linksTo(invitee);
    expect(first).toHaveLength(1);
    const row = page.locator('tr', { hasText: invitee });
    await row.getByRole('button', { name: 'Resend' }).click();
    await page.getByText(`A new link was sent to ${invitee}; the earlier ones no longer work.`).waitFor();
    const second = await linksTo(invitee);
    expect(second).toHaveLength(2);
    await page.locator('tr', { hasText: withdrawn }).getByRole('button', { name: 'Revoke' }).click();
    await page.locator('tr', { hasText: withdrawn }).waitFor({ state: 'detached' });
    await page.reload();
    await row.waitFor();
    expect(await row.textContent()).toContain('e-mail sent');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'users-invitations');
    const phoneOwner = browser.phone;
    await signIn(phoneOwner, operatorApi.url, operator.ownerEmail);
    await phoneOwner.goto(`${operatorApi.url}/console/users`);
    await phoneOwner.locator('tr', { hasText: invitee }).waitFor();
    expect(await layoutProblems(phoneOwner)).toEqual([]);
    await screenshot(phoneOwner, 'users-invitations');
    await signOut(phoneOwner);

    // The invitee, on a phone: the first link was replaced by the resend.
    const phone = browser.phone;
    await phone.goto(first[0]!);
    await phone.getByRole('heading', { name: 'Join the console' }).waitFor();
    // Said at once, before a password is typed.
    await phone.getByText('A newer link was sent for this invitation; use the one in the latest e-mail.').waitFor();
    expect(await phone.getByLabel('New password', { exact: true }).count()).toBe(0);
    expect(await layoutProblems(phone)).toEqual([]);
    await screenshot(phone, 'invitation-replaced');

    await phone.goto(second[1]!);
    await phone.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await phone.getByLabel('New password again').fill(NEW_PASSWORD);
    expect(await layoutProblems(phone)).toEqual([]);
    await screenshot(phone, 'invitation-accept');
    await phone.getByRole('button', { name: 'Set password and sign in' }).click();
    await phone.getByRole('heading', { name: 'Bookings' }).waitFor();
    expect(new URL(phone.url()).pathname).toBe('/console/bookings');
    expect(await phone.locator('.who').textContent()).toContain(invitee);
    // Staff: no Users page.
    expect(await phone.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await signOut(phone);

    // The same link again: used.
    await page.context().clearCookies();
    await page.goto(second[1]!);
    await page.getByText('This link was used already. Sign in, or ask for a new one.').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'invitation-used');
    expect(browser.dialogs).toEqual([]);
  });
});

describe('console: forgot password', () => {
  it('sends a reset link from the sign-in page that signs in with the new password, once', async () => {
    const page = browser.phone;
    await page.context().clearCookies();
    await page.goto(`${operatorApi.url}/console/bookings`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await page.getByLabel('E-mail').fill(operator.staffEmail);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If ${operator.staffEmail} is the address of a console user, a link is on its way to it.`, { exact: false }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'forgot-password');

    const [link] = await linksTo(operator.staffEmail);
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD}!`);
    expect(await page.getByText('The two new passwords differ.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Set new password' }).isDisabled()).toBe(true);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'password-reset');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();

    const desktop = browser.desktop;
    await desktop.context().clearCookies();
    await desktop.goto(link!);
    await desktop.getByLabel('New password', { exact: true }).fill('another long password');
    await desktop.getByLabel('New password again').fill('another long password');
    await desktop.getByRole('button', { name: 'Set new password' }).click();
    await desktop.getByText('This link was used already. Sign in, or ask for a new one.').waitFor();
    expect(await layoutProblems(desktop)).toEqual([]);
    await screenshot(desktop, 'password-reset-used');
    await desktop.getByRole('link', { name: 'Back to sign in' }).click();
    await desktop.getByLabel('E-mail').fill(operator.staffEmail);
    await desktop.getByLabel('Password').fill(PASSWORD);
    await desktop.getByRole('button', { name: 'Sign in' }).click();
    await desktop.getByRole('alert').waitFor();
    await desktop.getByLabel('Password').fill(NEW_PASSWORD);
    await desktop.getByRole('button', { name: 'Sign in' }).click();
    await desktop.getByRole('heading', { name: 'Bookings' }).waitFor();
    await screenshot(desktop, 'forgot-password-signed-in');
  });
});
