// Waiver answers at the desk in Chromium at 1280 and 390 px (issue 39.4, 39.13, 39.17): an http(s) URL answer is a link
// that opens apart (rel="noopener noreferrer"), any other scheme or markup stays text; the sale form asks the
// activity's waiver questions (every type, per participant where asked; a file question takes a file, uploaded at
// once) and takes a walk-in without an e-mail address, and the manifest then says the waivers are complete.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestQuestion, request, sampleFile } from '@backbone/testkit';
import { createTestActivity } from '@backbone/testkit';
import { createConsoleOperator, createSlot, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
let date: string;

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool);
  date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Lisbon' }).format(new Date(Date.now() + 2 * 86_400_000));
  await createSlot(db.pool, operator.activity, date, '10:00', 8);
});

describe('console: answers that are web addresses', () => {
  it('links an http(s) answer and leaves other schemes and markup as text', async () => {
    const licence = await createTestQuestion(db.pool, operator.activity, { question: 'Licence (upload or link)', type: 'file', required: false });
    const site = await createTestQuestion(db.pool, operator.activity, { question: 'Club website', type: 'text', required: false });
    const script = await createTestQuestion(db.pool, operator.activity, { question: 'Anything else', type: 'text', required: false });
    const markup = await createTestQuestion(db.pool, operator.activity, { question: 'Allergies', type: 'text', required: false });
    const sentence = await createTestQuestion(db.pool, operator.activity, { question: 'Where did you hear of us', type: 'text', required: false });
    const booking = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
      key: operator.ota,
      body: {
        ActivityID: operator.activity.activityId,
        Date: date,
        Time: '10:00',
        Participants: 1,
        Customer: { FirstName: 'Ana', LastName: 'Links', Email: 'ana@example.com' },
        Answers: [
          { QuestionID: licence.id, Value: 'https://files.example.com/licences/ana-links-driving-licence-2025-front-and-back.pdf?version=2' },
          { QuestionID: site.id, Value: 'http://club.example.org/' },
          { QuestionID: script.id, Value: 'javascript:alert(1)' },
          { QuestionID: markup.id, Value: '<img src=x onerror="document.title=1">peanuts' },
          { QuestionID: sentence.id, Value: 'A friend, see https://example.net' },
        ],
      },
    });
    expect(booking.status, booking.text).toBe(201);
    const reference = booking.body.Reference as string;
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.ownerEmail);
      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
      const answer = (question: string) => panel.locator('.answer', { hasText: question }).locator('dd');
      await answer('Licence').waitFor();
      const link = answer('Licence').getByRole('link');
      expect(await link.getAttribute('href')).toBe('https://files.example.com/licences/ana-links-driving-licence-2025-front-and-back.pdf?version=2');
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await answer('Club website').getByRole('link').getAttribute('href')).toBe('http://club.example.org/');
      expect(await answer('Anything else').locator('a').count()).toBe(0);
      expect(await answer('Anything else').textContent()).toBe('javascript:alert(1)');
      expect(await answer('Allergies').locator('img').count()).toBe(0);
      expect(await answer('Allergies').textContent()).toBe('<img src=x onerror="document.title=1">peanuts');
      expect(await answer('Where did you hear').locator('a').count()).toBe(0);
      expect(await page.title()).not.toBe('1');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'answer-links');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});

describe('console: waivers and walk-ins at the desk', () => {
  it('sells with the waiver filled in at the desk and without an e-mail address; the manifest says the waivers are complete', async () => {
    const activity = await createTestActivity(db.pool, operator.account.id, {
      name: 'Canyoning with a very long name for the desk',
      timeZone: 'Europe/Lisbon',
      maxParticipants: 6,
    });
    await createSlot(db.pool, activity, date, '11:00', 6);
    const ask = (question: string, type: string, extra: Record<string, unknown> = {}) =>
      createTestQuestion(db.pool, activity, { question, type, required: true, ...extra });
    await ask('I accept the risks described in the briefing, including cold water and slippery rocks', 'checkbox');
    await ask('Emergency contact', 'text');
    await ask('Wetsuit size', 'select', { options: ['S', 'M', 'L'] });
    await ask('Dietary needs', 'multiselect', { options: ['Vegetarian', 'Gluten-free'], required: false });
    await ask('Date of birth', 'date', { perParticipant: true });
    await ask('Swimming level', 'number', { required: false });
    await ask('Signature', 'signature');
    await ask('Medical certificate', 'file', { required: false });
    for (const page of [browser.desktop, browser.phone]) {
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(`${operatorApi.url}/console/sale?ActivityID=${activity.activityId}&Date=${date}&Time=11:00`);
      const form = page.getByRole('form', { name: 'Point-of-sale sale' });
      await form.getByLabel('Timeslot').locator('option[value="11:00"]').waitFor({ state: 'attached' });
      await form.getByLabel('Participants').fill('2');
      const waiver = form.getByRole('group', { name: 'Waiver' });
      await waiver.getByLabel('Date of birth (participant 2)').waitFor();
      await form.getByLabel('First name').fill('Walk');
      await form.getByLabel('Last name').fill('In');
      expect(await form.getByLabel(/^E-mail/).getAttribute('required')).toBeNull();
      await waiver.getByLabel(/I accept the risks/).check();
      await waiver.getByLabel('Emergency contact').fill('Rui +351 912 345 678');
      await waiver.getByLabel('Wetsuit size').selectOption('M');
      await waiver.getByLabel('Vegetarian').check();
      await waiver.getByLabel('Date of birth (participant 1)').fill('1990-04-01');
      await waiver.getByLabel('Date of birth (participant 2)').fill('2012-09-30');
      await waiver.getByLabel(/Swimming level/).fill('3');
      await waiver.getByLabel(/Signature/).fill('Walk In');
      await waiver.getByLabel(/Medical certificate.*: choose a file/).setInputFiles({
        name: 'medical-certificate.pdf',
        mimeType: 'application/pdf',
        buffer: sampleFile('application/pdf', 20_000),
      });
      await waiver.locator('.file-kept', { hasText: 'medical-certificate.pdf' }).waitFor();
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'sale-waiver');
      await form.getByRole('button', { name: 'Sell' }).click();
      const sold = page.getByRole('status').filter({ hasText: 'Sold' });
      await sold.waitFor();
      const reference = (await sold.getByRole('link').textContent())!;
      // The form is empty again for the next guest, answers included.
      expect(await waiver.getByLabel('Emergency contact').inputValue()).toBe('');
      const { rows } = await db.pool.query(
        `SELECT customer, (SELECT count(*) FROM mail_messages m WHERE m.booking_id = b.id)::int AS mails FROM bookings b WHERE reference = $1`,
        [reference],
      );
      expect(rows[0]).toEqual({ customer: { FirstName: 'Walk', LastName: 'In', Phone: null }, mails: 0 });
      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
      await panel.locator('.answer').first().waitFor();
      const answers = await panel.locator('.answer').allTextContents();
      expect(answers).toEqual(
        expect.arrayContaining([
          expect.stringContaining('Yes'),
          'Emergency contactRui +351 912 345 678',
          'Wetsuit sizeM',
          'Dietary needsVegetarian',
          'Date of birth (participant 1)1990-04-01',
          'Date of birth (participant 2)2012-09-30',
          'Swimming level3',
          'SignatureWalk In',
          'Medical certificatemedical-certificate.pdf (PDF, 20 KB)',
        ]),
      );
      await page.goto(`${operatorApi.url}/console/manifest?Date=${date}&ActivityID=${activity.activityId}`);
      const waivers = page.locator(`tr[data-reference="${reference}"] td[data-label="Waivers"]`);
      expect(await waivers.textContent()).toBe('waivers complete');
      // The answers at the door, opened from the manifest.
      await waivers.getByText('waivers complete').click();
      await waivers.locator('.answer', { hasText: 'Emergency contact' }).waitFor();
      expect(await waivers.locator('.answer', { hasText: 'Medical certificate' }).getByRole('link').getAttribute('href')).toMatch(
        /^\/api\/v2\/operator\/files\/[0-9a-f-]{36}$/,
      );
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'manifest-answers');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});

describe('console: completing a waiver from the booking panel', () => {
  it("fills in the missing answers in Edit, keeps a partner's uploaded file, and the manifest says the waivers are complete", async () => {
    const activity = await createTestActivity(db.pool, operator.account.id, { name: 'Coasteering', timeZone: 'Europe/Lisbon', maxParticipants: 6 });
    await createSlot(db.pool, activity, date, '15:00', 6);
    const waiver = await createTestQuestion(db.pool, activity, { question: 'Signed waiver', type: 'file', required: true });
    const references: string[] = [];
    for (const name of ['Desk', 'Phone']) {
      const upload = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/files', {
        key: operator.ota,
        rawBody: sampleFile('application/pdf', 20_000),
        headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(`Waiver ${name}.pdf`)}` },
      });
      expect(upload.status, upload.text).toBe(201);
      const made = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
        key: operator.ota,
        body: {
          ActivityID: activity.activityId,
          Date: date,
          Time: '15:00',
          Participants: 1,
          Customer: { FirstName: 'Late', LastName: name, Email: 'late@example.com' },
          Answers: [{ QuestionID: waiver.id, FileID: upload.body.FileID }],
        },
      });
      expect(made.status, made.text).toBe(201);
      references.push(made.body.Reference);
    }
    // A question the owner added after these were booked: their waivers are missing until the desk completes them.
    await createTestQuestion(db.pool, activity, { question: 'Emergency contact', type: 'text', required: true });
    for (const [i, page] of [browser.desktop, browser.phone].entries()) {
      const reference = references[i]!;
      await signIn(page, operatorApi.url, operator.staffEmail);
      await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
      const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
      await panel.getByRole('button', { name: 'Edit' }).click();
      const form = panel.getByRole('form', { name: 'Edit the booking' });
      const fields = form.getByRole('group', { name: 'Waiver' });
      await fields.getByLabel('Emergency contact').waitFor();
      expect(
        await fields
          .getByRole('group', { name: /Signed waiver/ })
          .locator('.file-kept')
          .textContent(),
      ).toContain(`Waiver ${i ? 'Phone' : 'Desk'}.pdf`);
      await fields.getByLabel('Emergency contact').fill('Rui +351 912 345 678');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'panel-waiver-edit');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await panel.locator('.answer', { hasText: 'Emergency contact' }).waitFor();
      expect(await panel.locator('.answer', { hasText: 'Signed waiver' }).getByRole('link').textContent()).toBe(`Waiver ${i ? 'Phone' : 'Desk'}.pdf`);
      await page.goto(`${operatorApi.url}/console/manifest?Date=${date}&ActivityID=${activity.activityId}`);
      const state = page.locator(`tr[data-reference="${reference}"] td[data-label="Waivers"] summary`);
      await state.waitFor();
      expect(await state.textContent()).toBe('waivers complete');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('E-mail').waitFor();
    }
  });
});
