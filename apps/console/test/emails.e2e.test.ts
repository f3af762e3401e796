// Customer e-mails in a real headless Chromium: the owner edits a template with its live preview (a mistake shows the
// line, nothing is saved), saves it, sends it as a test, and finds the test and a booking's confirmation on the
// E-mails page with the rendered message; switches a partner's customers' e-mails on; both pages fit 1280 and 390 px.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { bookDirect, createConsoleOperator, createSlot, dayFromNow, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, browser } = useConsole();

let operator: ConsoleOperator;
let partnerId: string;
const PARTNER = 'Nordic Fjord Adventures & Sea Kayak Expeditions International Reseller Group';
const date = dayFromNow(4);

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  await createSlot(db.pool, operator.activity, date, '10:00');
  await bookDirect(db.pool, operator, { date, time: '10:00' }, 'online', { FirstName: 'Ingrid', LastName: 'Fjeld' });
  partnerId = (await createApiKey(db.pool, operator.account.id, { name: PARTNER, scopes: ['ota'] })).partnerId!;
  await signIn(browser.desktop, operatorApi.url, operator.ownerEmail);
});

describe('console: e-mail templates and the E-mails page', () => {
  it('edits a template with a live preview, refuses a broken one with its line, saves and sends a test', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/email-templates`);
    await page.getByRole('heading', { name: 'E-mail templates' }).waitFor();
    const editor = page.getByRole('form', { name: 'The confirmation template' });
    await editor.getByLabel('Subject').fill('Welcome aboard, {{firstName}}: {{reference}}');
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('Welcome aboard, Ana: BK-SAMPLE1').waitFor();

    await editor.getByLabel('Plain text').fill('Hello {{firstName}},\nsee you on {{dayte}}');
    await preview.getByRole('alert').getByText('Template.text, line 2: unknown placeholder {{dayte}}', { exact: false }).waitFor();
    await editor.getByRole('button', { name: 'Save template' }).click();
    await editor.getByRole('alert').getByText('Templates.confirmation.text, line 2', { exact: false }).waitFor();

    await editor.getByLabel('Plain text').fill('Hello {{firstName}},\nsee you on {{date}} at {{time}}.');
    await preview.getByText('see you on Saturday 6 June 2026 at 10:00.', { exact: false }).waitFor();
    await editor.getByRole('button', { name: 'Save template' }).click();
    await editor.getByRole('status').getByText('Template saved.').waitFor();

    await preview.getByLabel('Send a test to').fill('owner-inbox@example.com');
    await preview.getByRole('button', { name: 'Send test' }).click();
    await preview.getByRole('status').getByText('Test queued to owner-inbox@example.com').waitFor();
    await screenshot(page, 'email-templates');

    await page.reload();
    await page.getByRole('form', { name: 'The confirmation template' }).getByLabel('Subject').waitFor();
    expect(await page.getByRole('form', { name: 'The confirmation template' }).getByLabel('Subject').inputValue()).toBe(
      'Welcome aboard, {{firstName}}: {{reference}}',
    );
  });

  it("switches a partner's customers' e-mails on, at once, and keeps it", async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/email-templates`);
    const partners = page.getByRole('group', { name: "Partners' customers" });
    const box = partners.getByRole('checkbox', { name: `E-mail customers of ${PARTNER}` });
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await expect.poll(async () => (await db.pool.query(`SELECT customer_emails FROM partners WHERE id = $1`, [partnerId])).rows[0].customer_emails).toBe(true);
    await page.reload();
    expect(
      await page
        .getByRole('group', { name: "Partners' customers" })
        .getByRole('checkbox', { name: `E-mail customers of ${PARTNER}` })
        .isChecked(),
    ).toBe(true);
    await page.setViewportSize({ width: 390, height: 800 });
    await screenshot(page, 'email-partners-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it("lists the test and the booking's e-mails, and opens the rendered message", async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/emails`);
    await page.getByRole('heading', { name: 'E-mails' }).waitFor();
    const test = page.locator('tr[data-status="queued"]', { hasText: 'owner-inbox@example.com' });
    await test.getByText('[Test] Welcome aboard, Ana: BK-SAMPLE1').click();
    const frame = page.frameLocator('iframe[title="The message to owner-inbox@example.com"]');
    await frame.getByText('Ana', { exact: false }).first().waitFor();
    // The booking's confirmation and reminder wait for the worker: listed with their recipient, not yet rendered.
    const booking = page.locator('tbody tr[data-message]', { hasText: 'guest@example.com' });
    expect(await booking.locator('td[data-label="Kind"]').allTextContents()).toEqual(['reminder', 'confirmation']);
    expect(await page.locator('tbody tr[data-message]').count()).toBe(3);
    await screenshot(page, 'emails');
  });

  it('fits both pages in 1280 and 390 px', async () => {
    const page = browser.desktop;
    const problems: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const name of ['email-templates', 'emails']) {
        await page.goto(`${operatorApi.url}/console/${name}`);
        await page.locator('main h1').waitFor();
        // A page may show several loading states at once (users and invitations): wait until none is left.
        await page.waitForFunction(() => document.querySelectorAll('.state[role="status"]').length === 0);
        for (const problem of await layoutProblems(page)) problems.push(`${name} at ${width}: ${problem}`);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(problems).toEqual([]);
    expect(browser.dialogs).toEqual([]);
  });
});
