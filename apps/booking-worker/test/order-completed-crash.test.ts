// The order-completed meter fed by the operator's own checkout, through the real worker processes: a burst of online
// bookings on the booking page (hold, then Book) and point-of-sale sales, the booking worker (whose outbox relay
// publishes each order.completed) killed with SIGKILL in the middle of it and started again, and the metering worker
// turning the events into entries. The account's usage summary then shows exactly one order-completed entry per online
// or point-of-sale booking, each with its reference as BasketID, and none for a partner's booking.
import { beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import {
  createTestAccount,
  createTestActivity,
  createTestTimeslot,
  futureDate,
  request,
  useTestDatabase,
  useTestRedis,
  useTestServer,
  useWorkerProcesses,
} from '@backbone/testkit';
import { createSale, getUsageSummary } from '@backbone/use-cases';
import { spawnWorker, untilRunning, waitFor } from './support.js';

const db = useTestDatabase({ poolSize: 30 });
const redis = useTestRedis();
const partner = useTestServer(() => createTestPartnerApp(db.pool));
const metering = useWorkerProcesses('apps/metering-worker/src/main.ts', 'metering worker');

const ONLINE = 60;
const SALES = 10;
const SLUG = 'crash-kayaks';
const day = futureDate(12, 'Europe/Lisbon');
let accountId: string;
let partnerKey: string;
let activityId: string;

beforeAll(async () => {
  const account = await createTestAccount(db.pool, { timeZone: 'Europe/Lisbon' });
  accountId = account.account.id;
  partnerKey = await account.keyWith(['ota']);
  const activity = await createTestActivity(db.pool, accountId, { timeZone: 'Europe/Lisbon', name: 'Sunset kayak' });
  activityId = activity.activityId;
  await createTestTimeslot(db.pool, activity, { date: day, time: '18:00', capacity: 500 });
  const saved = await saveBookingPage(db.pool, accountId, { enabled: true, slug: SLUG });
  if (typeof saved === 'string') throw new Error(saved);
});

const env = () => ({ REDIS_URL: redis.redisUrl, QUEUE_PREFIX: redis.prefix, METRICS_PORT: '0' });

/** One customer on the page: a hold from an address of its own (an address may hold 5 at once), then Book. */
async function bookOnline(i: number): Promise<string> {
  const headers = { 'x-forwarded-for': `203.0.113.${i}` };
  const base = `/api/v2/shop/${SLUG}`;
  const held = await request(partner.url, 'POST', `${base}/holds`, {
    body: { ActivityID: activityId, Date: day, Time: '18:00', Participants: 1 },
    headers,
  });
  expect(held.status, held.text).toBe(201);
  const confirmed = await request(partner.url, 'POST', `${base}/holds/${held.body.Token}/confirm`, {
    body: { Customer: { FirstName: 'Ana', LastName: `Silva ${i}`, Email: `ana${i}@example.com`, Phone: '+351 21 000 0000' } },
    headers,
  });
  expect(confirmed.status, confirmed.text).toBe(200);
  return confirmed.body.Reference as string;
}

async function sellAtCounter(i: number): Promise<string> {
  const { value } = await createSale(
    { pool: db.pool },
    {
      accountId,
      apiKeyId: null,
      userId: null,
      sale: {
        ActivityID: activityId,
        Date: day,
        Time: '18:00',
        Participants: 2,
        Customer: { FirstName: 'Rui', LastName: `Costa ${i}`, Email: `rui${i}@example.com` },
      },
    },
  );
  return value.Reference;
}

async function orderEvents(): Promise<{ sent: number; total: number }> {
  const { rows } = await db.pool.query<{ sent: number; total: number }>(
    `SELECT count(*) FILTER (WHERE sent_at IS NOT NULL)::int AS sent, count(*)::int AS total FROM outbox_events WHERE account_id = $1 AND type = 'order.completed'`,
    [accountId],
  );
  return rows[0]!;
}

async function orderEntries(): Promise<string[]> {
  const { rows } = await db.pool.query<{ extra_info: string }>(`SELECT extra_info FROM usage_entries WHERE account_id = $1 AND meter = 'order-completed'`, [
    accountId,
  ]);
  return rows.map((row) => (JSON.parse(row.extra_info) as { BasketID: string }).BasketID);
}

describe('order-completed after a SIGKILL of the booking worker mid-burst', () => {
  it('counts exactly one entry per online and point-of-sale booking', async () => {
    const meteringWorker = metering.spawn(db, env());
    const first = spawnWorker(db, { ...env(), OUTBOX_RELAY_BATCH_SIZE: '5', OUTBOX_RELAY_INTERVAL_MS: '20' });
    await Promise.all([metering.untilRunning(meteringWorker), untilRunning(first)]);

    // The burst: customers eight at a time on the page, the counter's sales and a partner's booking beside them.
    const references: string[] = [];
    let next = 0;
    const customers = Array.from({ length: 8 }, async () => {
      while (next < ONLINE) references.push(await bookOnline(++next));
    });
    const counter = (async () => {
      for (let i = 1; i <= SALES; i++) references.push(await sellAtCounter(i));
    })();
    const partnerBooking = await request(partner.url, 'POST', '/api/v2/ota/partner/booking', {
      key: partnerKey,
      body: { ActivityID: activityId, Date: day, Time: '18:00', Participants: 1, Customer: { FirstName: 'Pia', LastName: 'Berg', Email: 'pia@example.com' } },
    });
    expect(partnerBooking.status).toBe(201);

    // Killed once it has published some of the orders and while the customers are still booking.
    await waitFor('some order.completed events published', async () => (await orderEvents()).sent >= 10, 60_000, 5);
    first.child.kill('SIGKILL');
    await first.exited;
    const atKill = await orderEvents();
    await Promise.all([...customers, counter]);
    const afterBurst = await orderEvents();
    expect(afterBurst.total).toBe(ONLINE + SALES);
    expect(afterBurst.sent).toBe(atKill.sent);
    expect(afterBurst.sent).toBeLessThan(ONLINE + SALES);

    const second = spawnWorker(db, env());
    await untilRunning(second);
    await waitFor('every order metered', async () => (await orderEntries()).length >= ONLINE + SALES, 60_000);
    // Whatever was published twice around the kill is still one entry: give a repeat the time to land.
    await waitFor('every order.completed event sent', async () => (await orderEvents()).sent === ONLINE + SALES, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1000));

    const baskets = await orderEntries();
    expect(baskets).toHaveLength(ONLINE + SALES);
    expect([...baskets].sort()).toEqual([...references].sort());
    expect(baskets).not.toContain(partnerBooking.body.Reference);

    const summary = await getUsageSummary(
      { pool: db.pool },
      { accountId, accountTimeZone: 'Europe/Lisbon', from: futureDate(-1, 'Europe/Lisbon'), to: futureDate(1, 'Europe/Lisbon'), perDay: false },
    );
    expect(summary.Meters.find((meter) => meter.Meter === 'order-completed')).toMatchObject({ TotalUsage: ONLINE + SALES, EventCount: ONLINE + SALES });
  });
});
