// The console's own account pages in Chromium at 1280 and 390 px: a one-time password leads to "Choose your password"
// and nothing else until it is changed (errors beside their fields, in words); the Change password page for everyone.
import { beforeAll, describe, expect, it } from 'vitest';
import { createOperatorUser } from '@backbone/use-cases';
import { createConsoleOperator, layoutProblems, PASSWORD, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
});

const NEW_PASSWORD = 'a password of my own';

describe('console: passwords', () => {
  it('makes a user signed in with a one-time password choose their own before anything else', async () => {
    const email = `newcomer-${operator.account.id.slice(0, 8)}@example.com`;
    const { password } = await createOperatorUser({ pool: db.pool }, { accountId: operator.account.id, email, role: 'staff', actor: { kind: 'cli' } });
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);

    await page.getByLabel('Current password').fill('not the one-time one');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    const beside = page.locator('.field', { hasText: 'Current password' }).locator('.field-error');
    await expect.poll(() => beside.textContent()).toBe('Current password is not your current password.');
    await screenshot(page, 'password-first-sign-in');

    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Bookings' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain(email);
  });

  it('lets every user change their password from the header (phone), the two new ones compared before sending', async () => {
    const page = browser.phone;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.getByRole('link', { name: 'Password' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(`${NEW_PASSWORD}!`);
    expect(await page.getByText('The two new passwords differ.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Change password' }).isDisabled()).toBe(true);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'password-change');
    // Back to the shared password for the other tests of this file.
    await page.getByLabel('Current password').fill(NEW_PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed.').waitFor();
  });
});
