// Every page of the console walked as staff in Chromium at 1280 and 390 px: nothing on screen that the staff role may
// not use (the contracts' permission table decides, as it does for the API), so the walk meets no 403 at all; an
// owner's page behind its URL says it is the owners'. The layout holds on every page for staff as for owners.
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_PERMISSIONS, operatorMay, type OperatorOperationId } from '@backbone/contracts';
import { bookDirect, createConsoleOperator, createSlot, dayFromNow, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
const date = dayFromNow(1);

/** Each page with the operation it is built on (app.tsx's table), and its URL with the day and activity chosen. */
const PAGES: readonly { path: string; operation: OperatorOperationId }[] = [
  { path: 'bookings', operation: 'listOperatorBookings' },
  { path: 'manifest', operation: 'getOperatorManifest' },
  { path: 'availability', operation: 'listOperatorTimeslots' },
  { path: 'waitlist', operation: 'listTimeslotWaitlist' },
  { path: 'sale', operation: 'createSale' },
  { path: 'reports', operation: 'getOperatorSalesReport' },
  { path: 'usage', operation: 'getOperatorUsage' },
  { path: 'activities', operation: 'editOperatorActivity' },
  { path: 'booking-page', operation: 'getOperatorBookingPage' },
  { path: 'keys', operation: 'listOperatorKeys' },
  { path: 'users', operation: 'listOperatorUsers' },
  { path: 'failed-events', operation: 'listFailedEvents' },
  { path: 'audit', operation: 'listOperatorAudit' },
  { path: 'emails', operation: 'listMailMessages' },
  { path: 'email-templates', operation: 'updateMailSettings' },
  { path: 'password', operation: 'changeOwnPassword' },
];

/** The words of controls that only owners may use, wherever they would appear. */
const OWNER_CONTROLS = [
  'Hide from shopfront',
  'Offer in shopfront',
  'Edit & questions',
  'Add question',
  'Generate timeslots from a weekly pattern',
  'Close',
  'Reopen',
  'Set',
  'Refresh',
  'Replay',
  'Send invitation',
  'Resend',
  'Disable',
  'Create key',
  'Revoke',
];

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  await createSlot(db.pool, operator.activity, date, '10:00', 8);
  await createSlot(db.pool, operator.activity, date, '15:00', 8);
  await bookDirect(db.pool, operator, { date, time: '10:00' }, 'online', { FirstName: 'Marta', LastName: 'Silva' });
});

async function walk(page: Page, width: number): Promise<{ refused: string[]; shown: string[]; layout: string[] }> {
  const refused: string[] = [];
  const onResponse = (response: Response) => {
    if (response.status() === 403) refused.push(`${response.request().method()} ${new URL(response.url()).pathname}`);
  };
  page.on('response', onResponse);
  const shown: string[] = [];
  const layout: string[] = [];
  await page.setViewportSize({ width, height: 844 });
  for (const { path, operation } of PAGES) {
    await page.goto(`${operatorApi.url}/console/${path}?ActivityID=${operator.activity.activityId}&Week=${date}&Date=${date}`);
    if (operatorMay('staff', operation)) await page.locator('main h1').waitFor();
    else await page.getByText('This page is for owners of the account.').waitFor();
    await expect.poll(() => page.getByText(/^Loading /).count()).toBe(0);
    for (const label of OWNER_CONTROLS) {
      const control = page.getByRole('button', { name: label, exact: true }).or(page.getByText(label, { exact: true }));
      if ((await control.count()) > 0 && (await control.first().isVisible())) shown.push(`${path}: ${label}`);
    }
    for (const problem of await layoutProblems(page)) layout.push(`${path} at ${width}: ${problem}`);
    await screenshot(page, `staff-${path}`);
  }
  page.off('response', onResponse);
  return { refused, shown, layout };
}

describe('console: staff', () => {
  it('staff may use what the table gives them and not the rest (the table this walk relies on)', () => {
    expect(operatorMay('staff', 'listOperatorTimeslots')).toBe(true);
    expect(operatorMay('staff', 'changeTimeslotCapacity')).toBe(false);
    expect(Object.keys(OPERATOR_PERMISSIONS)).toEqual(expect.arrayContaining(PAGES.map((p) => p.operation)));
  });

  it.each([
    ['desktop', 1280],
    ['phone', 390],
  ] as const)(
    'walks every page as staff at %s width without meeting a control it may not use, nor a 403',
    async (name, width) => {
      const page = browser[name];
      await signIn(page, operatorApi.url, operator.staffEmail);
      const nav = page.getByRole('navigation', { name: 'Pages' });
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Bookings', 'Manifest', 'Availability', 'New sale', 'Sales', 'Usage', 'Booking page']);
      const { refused, shown, layout } = await walk(page, width);
      expect(shown).toEqual([]);
      expect(refused).toEqual([]);
      expect(layout).toEqual([]);
    },
    180_000,
  );
});
