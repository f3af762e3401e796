// The console's end-to-end set-up: the console built fresh, the operator API serving it and the partner API, both
// in-process over this file's database and Redis, and one headless Chromium (Debian's, driven by playwright-core)
// with a desktop (1280 px) and a phone (390 px) page reused by every test.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestAccount, createTestActivity, createTestTimeslot, useTestDatabase, useTestRedis, useTestServer, type TestAccount } from '@backbone/testkit';
import { createBooking, createOperatorUser } from '@backbone/use-cases';
import type { Activity } from '@backbone/domain';
import type { BookingChannel } from '@backbone/contracts';

const consoleRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENSHOTS = path.join(consoleRoot, 'test', 'screenshots');
// Each test file builds into its own folder: two files building into one would empty it under each other.
export const CONSOLE_DIST = mkdtempSync(path.join(os.tmpdir(), 'backbone-console-dist-'));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const PASSWORD = 'correct horse battery';

/** `timezoneId`: the browser's own zone (the host's unless given), to show that the console uses the account's instead. */
export function useConsole(options: { timezoneId?: string } = {}) {
  const db = useTestDatabase();
  const redis = useTestRedis();
  let queues: EventQueues | undefined;
  beforeAll(() => {
    // Build what is under test (about a second); the operator API serves it like production does.
    execFileSync(
      process.execPath,
      [path.join(consoleRoot, '..', '..', 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', CONSOLE_DIST],
      {
        cwd: consoleRoot,
        stdio: 'inherit',
        // vitest sets NODE_ENV=test, which would give React's development build.
        env: { ...process.env, NODE_ENV: 'production' },
      },
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  const operatorApi = useTestServer(() => {
    const connection = redis.connection();
    queues = openQueues(connection, redis.prefix);
    return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues, consoleDir: CONSOLE_DIST });
  });
  const partnerApi = useTestServer(() => createTestPartnerApp(db.pool));
  const browser = { desktop: null as unknown as Page, phone: null as unknown as Page, dialogs: [] as string[] };
  let instance: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`No Chromium at ${CHROMIUM}: install Debian's (apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH.`);
    instance = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    for (const [name, viewport] of [
      ['desktop', { width: 1280, height: 800 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const context = await instance.newContext({ viewport, acceptDownloads: true, ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}) });
      contexts.push(context);
      const page = await context.newPage();
      page.on('dialog', (dialog) => {
        browser.dialogs.push(`${name}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('pageerror', (error) => browser.dialogs.push(`${name} page error: ${error.message}`));
      browser[name] = page;
    }
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await instance?.close();
    if (queues) await closeQueues(queues);
  });
  return { db, redis, operatorApi, partnerApi, browser, queues: () => queues! };
}

export interface ConsoleOperator extends TestAccount {
  activity: Activity;
  ownerEmail: string;
  staffEmail: string;
  ota: string;
}

export async function createConsoleOperator(pool: import('@backbone/db').Pool, name = 'Fjord Kayaks'): Promise<ConsoleOperator> {
  const account = await createTestAccount(pool, { name, timeZone: 'Europe/Lisbon' });
  const activity = await createTestActivity(pool, account.account.id, { name: 'Fjord paddle', timeZone: 'Europe/Lisbon', maxParticipants: 8 });
  const suffix = account.account.id.slice(0, 8);
  const ownerEmail = `owner-${suffix}@example.com`;
  const staffEmail = `staff-${suffix}@example.com`;
  await createOperatorUser({ pool }, { accountId: account.account.id, email: ownerEmail, role: 'owner', password: PASSWORD, actor: { kind: 'system' } });
  await createOperatorUser({ pool }, { accountId: account.account.id, email: staffEmail, role: 'staff', password: PASSWORD, actor: { kind: 'system' } });
  return { ...account, activity, ownerEmail, staffEmail, ota: await account.keyWith(['ota']) };
}

export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export async function createSlot(pool: import('@backbone/db').Pool, activity: Activity, date: string, time: string, capacity = 8) {
  return createTestTimeslot(pool, activity, { date, time, capacity });
}

export async function bookDirect(
  pool: import('@backbone/db').Pool,
  operator: ConsoleOperator,
  slot: { date: string; time: string },
  channel: BookingChannel,
  customer: { FirstName: string; LastName: string; Phone?: string },
  paymentReference: string | null = null,
) {
  const { value } = await createBooking(
    { pool },
    {
      accountId: operator.account.id,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel,
      activityId: operator.activity.activityId,
      date: slot.date,
      time: slot.time,
      participants: 1,
      customer: { ...customer, Email: 'guest@example.com' },
      paymentReference,
      answers: undefined,
    },
  );
  return value;
}

/** Saves a screenshot of the page as it is now, under test/screenshots/<name>-<width>.png (the whole page, or the viewport). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  const file = path.join(SCREENSHOTS, `${name}-${page.viewportSize()!.width}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

export async function signIn(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/console/bookings`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Bookings' }).waitFor();
}

/**
 * What is wrong with the layout as it is now: an element reaching past the viewport's sides (or a page that scrolls
 * sideways), and a text box narrower than 120 px. Hidden elements, the skip link, screen-reader-only labels and what
 * lies inside a box that scrolls sideways are out of sight on purpose and skipped.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`the page scrolls sideways (${document.documentElement.scrollWidth} > ${width})`);
    const describe = (el: PageElement) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}` +
      ` "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    for (const el of Array.from(document.querySelectorAll('body *'))) {
      if (el.closest('.skip-link, .sr-only')) continue;
      // Inside a box that scrolls sideways (the phone's row of pages) an element may lie past the edge: it is scrolled to.
      let scroller = el.parentElement;
      while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      if (scroller) continue;
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -1 || box.right > width + 1) problems.push(`${describe(el)} reaches ${Math.round(box.left)}..${Math.round(box.right)} of ${width}`);
      const textBox = el.matches('textarea, select, input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=file])');
      if (textBox && box.width < 120)
        problems.push(`${describe(el)} [name=${el.getAttribute('name') ?? el.getAttribute('aria-label') ?? ''}] is ${Math.round(box.width)} px wide`);
    }
    return problems;
  });
}
