// OCTO reservations racing partner-API bookings and console sales (the operator API, with an admin key) on one small
// timeslot: never more places than the capacity, and the counter always equals the places of the live bookings.
import { afterAll, describe, expect, it } from 'vitest';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
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
} from '@backbone/testkit';

const db = useTestDatabase({ poolSize: 30 });
const redis = useTestRedis();
let queues: EventQueues | undefined;
const partnerApi = useTestServer(() => createTestPartnerApp(db.pool));
const operatorApi = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues });
});

afterAll(async () => {
  if (queues) await closeQueues(queues);
});

describe('OCTO, partner API and console on one small timeslot', () => {
  it('never oversells, and the counter equals the live bookings', async () => {
    const account = await createTestAccount(db.pool, { timeZone: 'Europe/Berlin' });
    const ota = await account.keyWith(['ota']);
    const admin = await account.keyWith(['admin']);
    const activity = await createTestActivity(db.pool, account.account.id, { timeZone: 'Europe/Berlin' });
    const slot = await createTestTimeslot(db.pool, activity, { date: futureDate(5), time: '11:00', capacity: 7 });
    const customer = { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com' };
    const [availability] = (
      await request(partnerApi.url, 'POST', '/octo/availability', {
        key: ota,
        body: { productId: activity.activityId, optionId: 'DEFAULT', localDate: slot.date },
      })
    ).body as { id: string }[];

    const octo = () =>
      request(partnerApi.url, 'POST', '/octo/bookings', {
        key: ota,
        body: { productId: activity.activityId, optionId: 'DEFAULT', availabilityId: availability!.id, unitItems: [{ unitId: 'adult' }, { unitId: 'adult' }] },
      });
    const partner = () =>
      request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
        key: ota,
        body: { ActivityID: activity.activityId, Date: slot.date, Time: slot.time, Participants: 1, Customer: customer },
      });
    const sale = () =>
      request(operatorApi.url, 'POST', '/api/v2/operator/sales', {
        key: admin,
        body: { ActivityID: activity.activityId, Date: slot.date, Time: slot.time, Participants: 1, Customer: customer },
      });
    const attempts = Array.from({ length: 45 }, (_, i) => [octo, partner, sale][i % 3]!());
    const answers = await Promise.all(attempts);

    for (const res of answers) expect([200, 201, 400, 409], res.text).toContain(res.status);
    const refusedOcto = answers.filter((r) => r.status === 400);
    for (const res of refusedOcto) expect(res.body.error).toBe('UNPROCESSABLE_ENTITY');
    const placesAnswered = answers.reduce((sum, r) => sum + (r.status === 200 ? 2 : r.status === 201 ? 1 : 0), 0);

    const { rows } = await db.pool.query<{ booked: number; capacity: number; live: number }>(
      `SELECT t.booked, t.capacity,
              (SELECT coalesce(sum(participants), 0)::int FROM bookings b WHERE b.timeslot_id = t.id AND b.status IN ('on_hold', 'confirmed')) AS live
         FROM timeslots t WHERE t.id = $1`,
      [slot.id],
    );
    expect(rows[0]!.booked).toBeLessThanOrEqual(rows[0]!.capacity);
    expect(rows[0]!.booked).toBe(rows[0]!.live);
    expect(rows[0]!.booked).toBe(placesAnswered);
    // With 45 people wanting 60 places of 7, the slot ends full or one short (an OCTO pair cannot take the last place).
    expect(rows[0]!.booked).toBeGreaterThanOrEqual(6);
  });
});
