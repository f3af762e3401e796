// File questions at the desk in Chromium at 1280 and 390 px (issue 39, defect 4): the sale form takes a photo of a
// signed paper waiver (uploaded at once, shown by its name and size, removable, a wrong file refused in words), sells
// with it, the booking panel and the manifest show it by its name with a download, and Edit replaces it with another
// file. Long file names wrap inside the form and the panel.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestActivity, createTestQuestion, request, sampleFile } from '@backbone/testkit';
import { createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
let date: string;
let activityId: string;
let waiverId: number;
let contactId: number;

const LONG_NAME = 'Marta-Isabel-Fernandes-da-Silva-Albuquerque_signed-paper-waiver_scan-2026-11-29_front-and-back_page-1-of-2.jpg';
const REPLACEMENT = 'Marta Isabel Fernandes da Silva Albuquerque – waiver re-scanned at the desk because the first photo was blurred.png';

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 3 * 86_400_000));
  const activity = await createTestActivity(db.pool, operator.account.id, { name: 'Cliff jumping', timeZone: 'Europe/Lisbon', maxParticipants: 6 });
  activityId = activity.activityId;
  await createSlot(db.pool, activity, date, '10:00', 12);
  waiverId = (
    await createTestQuestion(db.pool, activity, {
      question: 'Signed paper waiver (photo or scan)',
      type: 'file',
      required: true,
      options: ['image/jpeg', 'image/png', 'application/pdf'],
    })
  ).id;
  contactId = (await createTestQuestion(db.pool, activity, { question: 'Emergency contact', type: 'text', required: true })).id;
});

const files = async () => (await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM files WHERE account_id = $1`, [operator.account.id])).rows[0]!.n;

describe('console: a file answer at the desk', () => {
  it.each(['desktop', 'phone'] as const)('sells with an uploaded file and replaces it in Edit (%s)', async (which) => {
    const page = browser[which];
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/sale?ActivityID=${activityId}&Date=${date}&Time=10:00`);
    const form = page.getByRole('form', { name: 'Point-of-sale sale' });
    await form.getByLabel('Timeslot').locator('option[value="10:00"]').waitFor({ state: 'attached' });
    const question = form.getByRole('group', { name: /Signed paper waiver/ });
    await question.waitFor();
    expect(await question.locator('.hint').textContent()).toBe('JPEG, PNG, PDF; at most 10 MB.');
    await form.getByLabel('First name').fill('Marta');
    await form.getByLabel('Last name').fill('Albuquerque');
    await form.getByLabel('Emergency contact').fill('Rui +351 912 345 678');

    // Not what it says it is: the API sniffs the bytes and refuses it (415), in words, and nothing is chosen.
    const before = await files();
    await question.getByLabel(/: choose a file$/).setInputFiles({ name: 'waiver.png', mimeType: 'image/png', buffer: sampleFile('text', 3_000) });
    await expect.poll(() => question.getByRole('alert').textContent()).toContain('not image/png');
    expect(await question.locator('.file-kept').count()).toBe(0);
    expect(await files()).toBe(before);

    // Chosen, removed, chosen again.
    await question
      .getByLabel(/: choose a file$/)
      .setInputFiles({ name: 'wrong-guest.pdf', mimeType: 'application/pdf', buffer: sampleFile('application/pdf', 8_000) });
    await question.locator('.file-kept', { hasText: 'wrong-guest.pdf' }).waitFor();
    await question.getByRole('button', { name: /^Remove file/ }).click();
    expect(await question.locator('.file-kept').count()).toBe(0);
    expect(await question.getByRole('alert').count()).toBe(0);
    await question.getByLabel(/: choose a file$/).setInputFiles({ name: LONG_NAME, mimeType: 'image/jpeg', buffer: sampleFile('image/jpeg', 250_000) });
    await question.locator('.file-kept', { hasText: LONG_NAME }).waitFor();
    expect(await question.locator('.file-kept').textContent()).toBe(`${LONG_NAME} (JPEG, 244 KB)`);
    expect(await question.getByLabel(/: replace with another file$/).count()).toBe(1);
    // No web address is offered for a new answer: the desk uploads the file.
    expect(await question.locator('input[type=url]').count()).toBe(0);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'desk-file-sale');

    await form.getByRole('button', { name: 'Sell' }).click();
    const sold = page.getByRole('status').filter({ hasText: 'Sold' });
    await sold.waitFor();
    const reference = (await sold.getByRole('link').textContent())!;
    expect(await question.locator('.file-kept').count()).toBe(0);

    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
    const answer = panel.locator('.answer', { hasText: 'Signed paper waiver' });
    await answer.waitFor();
    const link = answer.getByRole('link');
    expect(await link.textContent()).toBe(LONG_NAME);
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/v2\/operator\/files\/[0-9a-f-]{36}$/);
    // The link downloads it with the session: the bytes as uploaded, as an attachment.
    const download = await page.request.get(operatorApi.url + href);
    expect(download.status()).toBe(200);
    expect(download.headers()['content-disposition']).toMatch(/^attachment;/);
    expect((await download.body()).length).toBe(250_000);
    expect(await layoutProblems(page)).toEqual([]);

    await panel.getByRole('button', { name: 'Edit' }).click();
    const edit = panel.getByRole('form', { name: 'Edit the booking' });
    const kept = edit.getByRole('group', { name: /Signed paper waiver/ });
    expect(await kept.locator('.file-kept').textContent()).toBe(`${LONG_NAME} (JPEG, 244 KB)`);
    await kept.getByLabel(/: replace with another file$/).setInputFiles({ name: REPLACEMENT, mimeType: 'image/png', buffer: sampleFile('image/png', 30_000) });
    await kept.locator('.file-kept', { hasText: REPLACEMENT }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'desk-file-edit');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => answer.getByRole('link').textContent()).toBe(REPLACEMENT);
    expect(await answer.getByRole('link').getAttribute('href')).not.toBe(href);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'desk-file-panel');

    await page.goto(`${operatorApi.url}/console/manifest?Date=${date}&ActivityID=${activityId}`);
    const waivers = page.locator(`tr[data-reference="${reference}"] td[data-label="Waivers"]`);
    expect(await waivers.textContent()).toBe('waivers complete');
    await waivers.getByText('waivers complete').click();
    await waivers.locator('.answer', { hasText: 'Signed paper waiver' }).getByRole('link', { name: REPLACEMENT }).waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'desk-file-manifest');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').waitFor();
  });

  it("keeps a partner's web address editable in Edit, and replaces it with an upload", async () => {
    const booked = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
      key: operator.ota,
      body: {
        ActivityID: activityId,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: { FirstName: 'Ana', LastName: 'Link', Email: 'ana@example.com' },
        Answers: [
          { QuestionID: waiverId, Value: 'https://drive.example.com/waivers/ana-link.pdf' },
          { QuestionID: contactId, Value: 'Rui' },
        ],
      },
    });
    expect(booked.status, booked.text).toBe(201);
    const reference = booked.body.Reference as string;
    const page = browser.desktop;
    await signIn(page, operatorApi.url, operator.staffEmail);
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
    await panel.getByRole('button', { name: 'Edit' }).click();
    const question = panel.getByRole('form', { name: 'Edit the booking' }).getByRole('group', { name: /Signed paper waiver/ });
    expect(await question.getByLabel(/: web address$/).inputValue()).toBe('https://drive.example.com/waivers/ana-link.pdf');
    await question
      .getByLabel(/: or upload a file instead$/)
      .setInputFiles({ name: 'ana.pdf', mimeType: 'application/pdf', buffer: sampleFile('application/pdf', 4_000) });
    await question.locator('.file-kept', { hasText: 'ana.pdf' }).waitFor();
    expect(await question.getByLabel(/: web address$/).count()).toBe(0);
    await panel.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => panel.locator('.answer', { hasText: 'Signed paper waiver' }).getByRole('link').textContent()).toBe('ana.pdf');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('E-mail').waitFor();
  });
});
