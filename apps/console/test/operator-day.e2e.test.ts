// The operator's day in a real headless Chromium: the booking panel following a partner's change, waiver answers
// that stay readable, a sale that a double click cannot turn into two bookings, what staff are not offered, the audit
// log (an owner's new key in it, no Audit page for staff), and a layout check of every page at 1280 and 390 px with
// realistic data (long names, long answers, many rows).
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestQuestion, request, sampleFile } from '@backbone/testkit';
import { changeTimeslotCapacity, createOperatorActivity, editOperatorActivity } from '@backbone/use-cases';
import { bookDirect, createConsoleOperator, createSlot, dayFromNow, layoutProblems, screenshot, signIn, useConsole, type ConsoleOperator } from './support.js';

const { db, operatorApi, partnerApi, browser } = useConsole();

let operator: ConsoleOperator;
const date = dayFromNow(3);
const LONG_QUESTION = 'Please describe any medical conditions, allergies or recent injuries our guides should know about before the tour starts';
const LONG_ANSWER =
  'Mild asthma (inhaler in the left pocket of my rucksack); allergic to penicillin and to wasp stings; sprained my right ankle ' +
  'in March, fully healed, but I would rather not carry the kayak down the steep path to the beach.';

beforeAll(async () => {
  operator = await createConsoleOperator(db.pool, 'Associação Náutica de Vila Nova de Milfontes e Costa Vicentina');
  for (const [time, capacity] of [
    ['09:00', 30],
    ['11:30', 6],
    ['15:00', 8],
    ['17:00', 6],
  ] as const)
    await createSlot(db.pool, operator.activity, date, time, capacity);
  const names = [
    ['Maria da Conceição', 'Vasconcelos de Albuquerque e Sousa'],
    ['João', 'Pereira'],
    ['Bartholomew-Alexander', 'Featherstonehaugh-Worthington'],
    ['Zoë', 'Ñúñez'],
  ];
  for (let i = 0; i < 24; i++) {
    const [first, last] = names[i % names.length]!;
    await bookDirect(
      db.pool,
      operator,
      { date, time: '09:00' },
      i % 2 ? 'online' : 'pos',
      { FirstName: first!, LastName: last! },
      `PAY-${1000 + i}-LONG-REFERENCE`,
    );
  }
  // The owner on the desktop, staff on the phone, for the whole file.
  await signIn(browser.desktop, operatorApi.url, operator.ownerEmail);
  await signIn(browser.phone, operatorApi.url, operator.staffEmail);
});

async function partnerBooking(body: Record<string, unknown> = {}) {
  const answer = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
    key: operator.ota,
    body: {
      ActivityID: operator.activity.activityId,
      Date: date,
      Time: '15:00',
      Participants: 2,
      Customer: { FirstName: 'Ana', LastName: 'Partner', Email: 'ana@example.com' },
      ...body,
    },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.Reference as string;
}

describe('console: the booking panel', () => {
  let withAnswers: string;

  beforeAll(async () => {
    const text = await createTestQuestion(db.pool, operator.activity, { question: LONG_QUESTION, type: 'text', required: false });
    const waiver = await createTestQuestion(db.pool, operator.activity, { question: 'Signed waiver', type: 'file', required: false });
    const upload = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/files', {
      key: operator.ota,
      rawBody: sampleFile('application/pdf', 40_000),
      headers: { 'content-type': 'application/pdf', 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('Waiver Ana Partner.pdf')}` },
    });
    expect(upload.status, upload.text).toBe(201);
    withAnswers = await partnerBooking({
      Answers: [
        { QuestionID: text.id, Value: LONG_ANSWER },
        { QuestionID: waiver.id, FileID: upload.body.FileID },
      ],
    });
  });

  it('shows each waiver question above its answer, wrapped inside the panel, and a file answer as a link', async () => {
    for (const page of [browser.desktop, browser.phone]) {
      await page.goto(`${operatorApi.url}/console/bookings?Open=${withAnswers}`);
      const panel = page.getByRole('complementary', { name: `Booking ${withAnswers}` });
      const answer = panel.locator('.answer', { hasText: LONG_QUESTION });
      await answer.waitFor();
      const panelBox = (await panel.boundingBox())!;
      const question = (await answer.locator('dt').boundingBox())!;
      const value = (await answer.locator('dd').boundingBox())!;
      expect(value.y).toBeGreaterThanOrEqual(question.y + question.height - 1);
      expect(value.width).toBeGreaterThan(panelBox.width / 2);
      expect(value.x + value.width).toBeLessThanOrEqual(panelBox.x + panelBox.width + 1);
      expect(await answer.locator('dd').textContent()).toBe(LONG_ANSWER);
      const link = panel.locator('.answer', { hasText: 'Signed waiver' }).getByRole('link', { name: 'Waiver Ana Partner.pdf' });
      expect(await link.getAttribute('href')).toMatch(/^\/api\/v2\/operator\/files\//);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'booking-answers');
      await screenshot(page, 'booking-answers-top', false);
    }
  });

  it('updates the open panel within 4 seconds after the partner cancels, without a reload', async () => {
    const reference = await partnerBooking({ Customer: { FirstName: 'Cancelled', LastName: 'ByPartner', Email: 'c@example.com' } });
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = page.getByRole('complementary', { name: `Booking ${reference}` });
    await panel.locator('[data-status="confirmed"]').waitFor();
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const cancelled = await request(partnerApi.url, 'POST', `/api/v2/ota/partner/booking/${reference}/cancel`, {
      key: operator.ota,
      body: { Reason: 'The guest missed the ferry' },
    });
    expect(cancelled.status, cancelled.text).toBe(200);
    await panel.locator('[data-status="cancelled"]').waitFor();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  });
});

describe('console: changing a booking from the panel', () => {
  const panelOf = (page: Page, reference: string) => page.getByRole('complementary', { name: `Booking ${reference}` });
  const apiBooking = async (reference: string) => (await request(operatorApi.url, 'GET', `/api/v2/operator/bookings/${reference}`, { key: operator.key })).body;

  it('edits the party, customer and note; a party too large for the slot shows the 409 and changes nothing', async () => {
    const reference = await partnerBooking({ Time: '11:30', Participants: 1, Customer: { FirstName: 'Edit', LastName: 'Me', Email: 'edit@example.com' } });
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = panelOf(page, reference);
    await panel.getByRole('button', { name: 'Edit' }).click();
    const form = panel.getByRole('form', { name: 'Edit the booking' });
    // 7 is within the activity's 8 per booking, but the 11:30 slot holds 6.
    await form.getByLabel('Participants').fill('7');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => (await panel.getByRole('alert').textContent()) ?? '').toMatch(/place/);
    expect((await apiBooking(reference)).Participants).toBe(1);
    await form.getByLabel('Participants').fill('2');
    await form.getByLabel('Last name').fill('Mendes-Albuquerque');
    await form.getByLabel('Note').fill('Vegetarian lunch; arrives by the 09:40 ferry');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await panel.locator('dd.note', { hasText: 'Vegetarian lunch; arrives by the 09:40 ferry' }).waitFor();
    const after = await apiBooking(reference);
    expect(after.Participants).toBe(2);
    expect(after.Customer.LastName).toBe('Mendes-Albuquerque');
    expect(after.Note).toBe('Vegetarian lunch; arrives by the 09:40 ferry');
    // The history names the change and who made it: the signed-in owner.
    const edited = panel.locator('.history li[data-action="edited"]').last();
    await edited.waitFor();
    expect(await edited.textContent()).toContain(operator.ownerEmail);
    expect(await edited.textContent()).toContain('1 → 2');
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'booking-edited');
    await screenshot(page, 'booking-edited-top', false);
  });

  it("clears the customer's phone when its field is emptied", async () => {
    const reference = await partnerBooking({
      Time: '11:30',
      Participants: 1,
      Customer: { FirstName: 'Phone', LastName: 'Owner', Email: 'phone@example.com', Phone: '+351 912 345 678' },
    });
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = panelOf(page, reference);
    await panel.getByText('+351 912 345 678').waitFor();
    await panel.getByRole('button', { name: 'Edit' }).click();
    const form = panel.getByRole('form', { name: 'Edit the booking' });
    await form.getByLabel('Phone (optional)').fill('');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await panel.locator('.history li[data-action="edited"]').last().waitFor();
    expect((await apiBooking(reference)).Customer.Phone).toBeNull();
    await expect.poll(async () => (await panel.textContent()) ?? '').not.toContain('+351 912 345 678 ');
    expect(await panel.locator('dt:text-is("Phone") + dd').textContent()).toBe('—');
  });

  it('reschedules to another timeslot: the old places freed, the new ones taken', async () => {
    const reference = await partnerBooking({ Time: '15:00', Participants: 2, Customer: { FirstName: 'Move', LastName: 'Me', Email: 'move@example.com' } });
    const slots = async () =>
      Object.fromEntries(
        (
          (
            await request(operatorApi.url, 'GET', `/api/v2/operator/activities/${operator.activity.activityId}/timeslots?From=${date}&To=${date}`, {
              key: operator.key,
            })
          ).body as { Time: string; Booked: number }[]
        ).map((s) => [s.Time, s.Booked]),
      );
    const before = await slots();
    const page = browser.phone;
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = panelOf(page, reference);
    await panel.getByRole('button', { name: 'Reschedule' }).click();
    const form = panel.getByRole('form', { name: 'Reschedule the booking' });
    await form.getByLabel('New time').locator('option[value="09:00"]').waitFor({ state: 'attached' });
    await form.getByLabel('New time').selectOption('09:00');
    await form.getByRole('button', { name: 'Move booking' }).click();
    await panel.getByText(`${date} 09:00`).waitFor();
    const after = await slots();
    expect(after['15:00']).toBe(before['15:00']! - 2);
    expect(after['09:00']).toBe(before['09:00']! + 2);
    await panel.locator('.history li[data-action="rescheduled"]').waitFor();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'booking-rescheduled');
    await panel.locator('.history').scrollIntoViewIfNeeded();
    await screenshot(page, 'booking-rescheduled-history', false);
  });

  it('cancels with a reason: the status, the reason and the history say so, and the buttons go', async () => {
    const reference = await partnerBooking({ Time: '15:00', Participants: 1, Customer: { FirstName: 'Cancel', LastName: 'Me', Email: 'cancel@example.com' } });
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/bookings?Open=${reference}`);
    const panel = panelOf(page, reference);
    await panel.getByRole('button', { name: 'Cancel booking' }).click();
    await panel.getByLabel('Reason (optional)').fill('Storm warning: the harbour master closed the bay');
    await panel.getByRole('button', { name: 'Confirm cancel' }).click();
    await panel.locator('[data-status="cancelled"]').waitFor();
    await panel.locator('.history li[data-action="cancelled"]').getByText('Storm warning: the harbour master closed the bay', { exact: false }).waitFor();
    await panel.getByText('Storm warning: the harbour master closed the bay').first().waitFor();
    expect((await apiBooking(reference)).Status).toBe('cancelled');
    expect(await panel.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
    await screenshot(page, 'booking-cancelled');
  });
});

describe('console: the day manifest', () => {
  it('checks a party in with one tap on a phone, from the slot in Availability', async () => {
    const reference = await partnerBooking({ Time: '11:30', Participants: 1, Customer: { FirstName: 'Tap', LastName: 'Checkin', Email: 'tap@example.com' } });
    const page = browser.phone;
    await page.goto(`${operatorApi.url}/console/availability?ActivityID=${operator.activity.activityId}&Week=${date}`);
    await page.getByRole('link', { name: `Manifest of ${date} 11:30` }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/console/manifest');
    const row = page.locator(`tr[data-reference="${reference}"]`);
    await row.getByRole('button', { name: 'Check in Tap Checkin' }).click();
    await row.locator('.checked-in').waitFor();
    expect((await request(operatorApi.url, 'GET', `/api/v2/operator/bookings/${reference}`, { key: operator.key })).body.CheckedInAt).not.toBeNull();
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'manifest');
    await screenshot(page, 'manifest-top', false);
    await row.getByRole('button', { name: 'Undo check-in of Tap Checkin' }).click();
    await row.getByRole('button', { name: 'Check in Tap Checkin' }).waitFor();
  });

  it('prints one table per timeslot and no navigation or buttons', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/manifest?Date=${date}&ActivityID=${operator.activity.activityId}`);
    await page.locator('.manifest-slot').first().waitFor();
    await screenshot(page, 'manifest-top', false);
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.locator('.topbar').isVisible()).toBe(false);
      expect(await page.locator('.filters').isVisible()).toBe(false);
      expect(await page.locator('button:visible').count()).toBe(0);
      // Of the day's four timeslots, the three with guests: the empty one is neither shown (folded away) nor printed.
      const slots = await page.locator('.manifest-slot:visible').count();
      const withBookings = await page.locator('.manifest-slot:has(tbody tr)').count();
      expect(slots).toBe(3);
      expect(withBookings).toBe(3);
      expect(await page.locator('table.manifest-table').count()).toBe(withBookings);
      expect(
        await page
          .locator('table.manifest-table')
          .first()
          .evaluate((t) => getComputedStyle(t).display),
      ).toBe('table');
      await screenshot(page, 'manifest-print');
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
  });
});

describe('console: sales', () => {
  it('shows the figures the sales report answers, by channel, partner and activity', async () => {
    const from = dayFromNow(-1);
    const to = dayFromNow(30);
    const api = await request(operatorApi.url, 'GET', `/api/v2/operator/reports/sales?From=${from}&To=${to}`, { key: operator.key });
    expect(api.status).toBe(200);
    const eur = (api.body.Currencies as { Currency: string; RevenueMinor: number; Bookings: number; ByChannel: { Channel: string }[] }[]).find(
      (c) => c.Currency === 'EUR',
    )!;
    for (const page of [browser.desktop, browser.phone]) {
      await page.goto(`${operatorApi.url}/console/reports?From=${from}&To=${to}`);
      const section = page.locator('[data-currency="EUR"]');
      await section.waitFor();
      expect(Number(await section.locator('[data-total="revenue"]').getAttribute('data-minor'))).toBe(eur.RevenueMinor);
      expect(await section.locator('[data-total="bookings"]').textContent()).toBe(new Intl.NumberFormat('en-US').format(eur.Bookings));
      expect(await section.getByRole('table', { name: 'Channel (EUR)' }).locator('tbody tr').count()).toBe(eur.ByChannel.length);
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'reports');
    }
  });
});

describe('console: a point-of-sale sale', () => {
  it('makes one booking of a double click, shows the total before selling and clears the customer after "Sold"', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/sale?ActivityID=${operator.activity.activityId}&Date=${date}&Time=17:00`);
    await page.getByLabel('Timeslot').locator('option[value="17:00"]').waitFor({ state: 'attached' });
    await page.getByLabel('Participants').fill('3');
    await expect.poll(() => page.locator('.sale-total').getAttribute('data-total-minor')).toBe(String(3 * 4500));
    await page.getByLabel('First name').fill('Double');
    await page.getByLabel('Last name').fill('Clicker');
    await page.getByLabel('E-mail').fill('double@example.com');
    await page.getByRole('button', { name: 'Sell' }).dblclick();
    await page.getByRole('status').filter({ hasText: 'Sold' }).waitFor();
    const found = await request(operatorApi.url, 'GET', '/api/v2/operator/bookings?Q=Clicker', { key: operator.key });
    expect(found.body.Bookings).toHaveLength(1);
    expect(await page.getByLabel('First name').inputValue()).toBe('');
    expect(await page.getByLabel('E-mail').inputValue()).toBe('');
    // The places left follow the sale (and a partner's bookings) without a reload.
    await expect.poll(() => page.getByLabel('Timeslot').locator('option[value="17:00"]').textContent()).toContain('3 of 6 left');
    await partnerBooking({ Time: '17:00', Participants: 1 });
    await expect.poll(() => page.getByLabel('Timeslot').locator('option[value="17:00"]').textContent()).toContain('2 of 6 left');
    await screenshot(page, 'new-sale-sold');
  });
});

describe('console: what staff are not offered', () => {
  it('shows staff the availability without the close, reopen, capacity and generate controls; owners see them', async () => {
    const url = `${operatorApi.url}/console/availability?ActivityID=${operator.activity.activityId}&Week=${date}`;
    await browser.phone.goto(url);
    const slot = browser.phone.locator(`li.slot[aria-label="${date} 15:00"]`);
    await slot.waitFor();
    expect(await slot.getByRole('button').count()).toBe(0);
    expect(await slot.getByRole('spinbutton').count()).toBe(0);
    expect(await browser.phone.getByText('Generate timeslots').count()).toBe(0);
    await browser.desktop.goto(url);
    await browser.desktop.locator(`li.slot[aria-label="${date} 15:00"]`).getByRole('button', { name: 'Close' }).waitFor();
    await browser.desktop.getByText('Generate timeslots').waitFor();
  });
});

describe('console: bookings by slot time', () => {
  it('orders the list by slot time from the Order selector, keeps it in the URL, pages on in that order and exports without it', async () => {
    for (const time of ['08:00', '19:30']) await createSlot(db.pool, operator.activity, dayFromNow(2), time, 8);
    await bookDirect(db.pool, operator, { date: dayFromNow(2), time: '19:30' }, 'online', { FirstName: 'Late', LastName: 'Evening' });
    await bookDirect(db.pool, operator, { date: dayFromNow(2), time: '08:00' }, 'pos', { FirstName: 'Early', LastName: 'Morning' });
    const api = async (query: string) => (await request(operatorApi.url, 'GET', `/api/v2/operator/bookings?${query}`, { key: operator.key })).body;
    const bySlot = await api('Sort=starts_at&Limit=50');
    for (const width of [1280, 390]) {
      const page = browser.desktop;
      await page.setViewportSize({ width, height: 800 });
      await page.goto(`${operatorApi.url}/console/bookings`);
      await page.locator('tr[data-reference]').first().waitFor();
      await page.getByLabel('Order').selectOption({ label: 'By slot time' });
      await page.waitForURL(/Sort=starts_at/);
      const shown = () => page.locator('tr[data-reference]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reference')));
      await expect.poll(shown).toEqual(bySlot.Bookings.map((b: { Reference: string }) => b.Reference));
      expect(await page.locator('tr[data-reference] .customer').first().textContent()).toBe('Early Morning');
      expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).not.toContain('Sort');
      expect(await layoutProblems(page)).toEqual([]);
      await screenshot(page, 'bookings-by-slot-time', false);
      // A reload keeps the order; Later follows the API's Next in the same order.
      await page.goto(`${operatorApi.url}/console/bookings?Sort=starts_at&Q=pereira`);
      await expect.poll(async () => page.getByLabel('Order').inputValue()).toBe('starts_at');
      const pereiras = (await api('Sort=starts_at&Q=pereira&Limit=50')).Bookings.map((b: { Reference: string }) => b.Reference);
      await expect.poll(shown).toEqual(pereiras);
      await page.getByLabel('Order').selectOption({ label: 'Newest booked first' });
      await expect.poll(() => page.url()).not.toContain('Sort=');
      await expect.poll(shown).toEqual((await api('Q=pereira&Limit=50')).Bookings.map((b: { Reference: string }) => b.Reference));
    }
    await browser.desktop.setViewportSize({ width: 1280, height: 800 });
  });

  it('pages by slot time with Later and back to the Earliest', async () => {
    const page = browser.desktop;
    // More than a page: the console asks for 50.
    await createSlot(db.pool, operator.activity, dayFromNow(5), '10:00', 40);
    for (let i = 0; i < 30; i++)
      await bookDirect(db.pool, operator, { date: dayFromNow(5), time: '10:00' }, 'online', { FirstName: `Guest ${i}`, LastName: 'Later' });
    const first = (await request(operatorApi.url, 'GET', '/api/v2/operator/bookings?Sort=starts_at&Limit=50', { key: operator.key })).body;
    expect(first.Next).not.toBeNull();
    const second = (await request(operatorApi.url, 'GET', `/api/v2/operator/bookings?Sort=starts_at&Limit=50&Cursor=${first.Next}`, { key: operator.key }))
      .body;
    await page.goto(`${operatorApi.url}/console/bookings?Sort=starts_at`);
    const shown = () => page.locator('tr[data-reference]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reference')));
    await expect.poll(shown).toEqual(first.Bookings.map((b: { Reference: string }) => b.Reference));
    await page.getByRole('button', { name: 'Later' }).click();
    await expect.poll(shown).toEqual(second.Bookings.map((b: { Reference: string }) => b.Reference));
    await page.getByRole('button', { name: 'Earliest' }).click();
    await expect.poll(shown).toEqual(first.Bookings.map((b: { Reference: string }) => b.Reference));
  });
});

describe('console: the audit log', () => {
  const KEY_NAME = 'Booking platform of the Alentejo coast (production, read-only reports)';

  beforeAll(async () => {
    // Realistic history: a long-named activity edited by the CLI, and more capacity changes than one page holds.
    const cli = { kind: 'cli' } as const;
    const accountId = operator.account.id;
    const long = await createOperatorActivity(
      { pool: db.pool },
      {
        accountId,
        actor: cli,
        activity: {
          Name: 'Sunset sea-kayak expedition along the Costa Vicentina cliffs, with a picnic on a hidden beach',
          Description: 'Three hours.',
          DurationMinutes: 180,
          Price: { Amount: 6500, Currency: 'EUR' },
          MaxParticipants: 10,
        },
      },
    );
    const changes = { Description: 'Three hours; bring a towel, sunscreen and a change of clothes.', Price: { Amount: 7200, Currency: 'EUR' } };
    await editOperatorActivity({ pool: db.pool }, { accountId, activityId: long.activityId, actor: cli, changes });
    const slot = await createSlot(db.pool, operator.activity, dayFromNow(9), '10:00', 1);
    for (let capacity = 2; capacity <= 56; capacity++)
      await changeTimeslotCapacity({ pool: db.pool }, { accountId, timeslotId: slot.id, capacity, actor: cli });
  });

  it('shows the owner a key just created, with who created it, and one more page on "Load more"', async () => {
    const page = browser.desktop;
    await page.goto(`${operatorApi.url}/console/keys`);
    await page.getByRole('form', { name: 'New API key' }).getByLabel('Name').fill(KEY_NAME);
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.locator('[data-secret]').textContent())!.trim();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Audit' }).click();
    const newest = page.locator('.audit-table tbody tr').first();
    await newest.waitFor();
    expect(await newest.getAttribute('data-action')).toBe('key.created');
    expect(await newest.locator('td[data-label="Action"]').textContent()).toBe('API key created');
    expect(await newest.locator('td[data-label="Subject"]').textContent()).toBe(KEY_NAME);
    expect(await newest.locator('td[data-label="Who"]').textContent()).toBe(operator.ownerEmail);
    expect(await newest.locator('td[data-label="Changes"]').textContent()).toContain('Scopes: ota');
    expect(await page.locator('.audit-table').textContent()).not.toContain(secret);
    expect(await page.locator('.audit-table tbody tr').count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.locator('.audit-table tbody tr').count()).toBeGreaterThan(50);
    expect(await page.locator('tr[data-action="activity.updated"] td[data-label="Who"]').textContent()).toBe('Admin CLI');
    await screenshot(page, 'audit');

    await page.getByLabel('Action').selectOption('key.created');
    await expect.poll(() => page.locator('.audit-table tbody tr').count()).toBe(1);
    expect(page.url()).toContain('Action=key.created');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Action').selectOption('');
    // Back to every action: the pages loaded before come back from the cache.
    await expect.poll(() => page.locator('.audit-table tbody tr').count()).toBeGreaterThan(50);
    expect(await layoutProblems(page)).toEqual([]);
    await screenshot(page, 'audit');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('offers staff no Audit page', async () => {
    const page = browser.phone;
    await page.goto(`${operatorApi.url}/console/bookings`);
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await nav.getByRole('link', { name: 'Bookings' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Audit' }).count()).toBe(0);
    // A link shared by an owner says the page is the owners', and asks the API nothing.
    await page.goto(`${operatorApi.url}/console/audit`);
    await page.getByText('This page is for owners of the account.').waitFor();
    expect(await page.locator('.audit-table').count()).toBe(0);
  });
});

describe('console: layout of every page', () => {
  const PAGES = ['bookings', 'manifest', 'availability', 'sale', 'reports', 'usage', 'activities', 'keys', 'users', 'failed-events', 'audit'];

  it('fits every page in 1280 and 390 px: nothing wider than the viewport, no text box narrower than 120 px', async () => {
    const page = browser.desktop;
    const problems: string[] = [];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const name of PAGES) {
        const from = name === 'reports' ? `&From=${dayFromNow(-1)}&To=${dayFromNow(30)}` : '';
        await page.goto(`${operatorApi.url}/console/${name}?ActivityID=${operator.activity.activityId}&Week=${date}&Date=${date}${from}`);
        await page.locator('main h1').waitFor();
        // A page may show several loading states at once (users and invitations): wait until none is left.
        await page.waitForFunction(() => document.querySelectorAll('.state[role="status"]').length === 0);
        if (name === 'availability') await page.getByText('Generate timeslots from a weekly pattern').click();
        for (const problem of await layoutProblems(page)) problems.push(`${name} at ${width}: ${problem}`);
        await screenshot(page, `layout-${name}`);
        await screenshot(page, `layout-${name}-top`, false);
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(problems).toEqual([]);
    // 22 pages loaded and measured one after another in one browser: a minute on a busy machine.
  }, 180_000);
});
