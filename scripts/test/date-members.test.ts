// One date rule for every API: each date and date-time member of every operation (found by walking the contract, so a
// new member cannot be missed) refuses what PostgreSQL or JavaScript cannot hold (year 0000, year 10000, a day that
// does not exist) with a 422 that names the member, and takes the first and last days of the range without a 500.
// OCTO's dates, which its use cases check against the same rule, answer OCTO's BAD_REQUEST.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_OPERATIONS, type Operation } from '@backbone/contracts';
import { saveBookingPage } from '@backbone/db';
import { closeQueues, createEventPublisher, openQueues, type EventPublisher, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestUsageApp } from '@backbone/test-apps/usage-api';
import {
  createTestAccount,
  createTestActivity,
  createTestTimeslot,
  futureDate,
  request,
  useTestDatabase,
  useTestRedis,
  useTestServer,
  type TestAccount,
} from '@backbone/testkit';

const db = useTestDatabase();
const redis = useTestRedis();
let queues: EventQueues | undefined;
const partnerApi = useTestServer(() => createTestPartnerApp(db.pool));
let publisher: EventPublisher | undefined;
const usageApi = useTestServer(() => {
  publisher = createEventPublisher({ connection: redis.connection(), prefix: redis.prefix });
  return createTestUsageApp({ pool: db.pool, publisher, redisReady: () => Promise.resolve(true) });
});
const operatorApi = useTestServer(() => {
  const connection = redis.connection();
  queues = openQueues(connection, redis.prefix);
  return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues });
});
afterAll(async () => {
  if (queues) await closeQueues(queues);
  await publisher?.close();
});

let tenant: TestAccount;
let activityId: string;
let booked: string;
let held: string;
let shopToken: string;
const SLUG = 'edge-page';
const day = futureDate(5, 'UTC');

beforeAll(async () => {
  tenant = await createTestAccount(db.pool);
  const activity = await createTestActivity(db.pool, tenant.account.id, { name: 'Edge kayak', maxParticipants: 8 });
  activityId = activity.activityId;
  await createTestTimeslot(db.pool, activity, { date: day, time: '10:00', capacity: 20 });
  const make = async (hold: boolean) =>
    (
      await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
        key: tenant.key,
        body: {
          ActivityID: activityId,
          Date: day,
          Time: '10:00',
          Participants: 1,
          ...(hold ? { Hold: { Minutes: 30 } } : { Customer: { FirstName: 'Edge', LastName: 'Case', Email: 'edge@example.com' } }),
        },
      })
    ).body.Reference as string;
  booked = await make(false);
  held = await make(true);
  await saveBookingPage(db.pool, tenant.account.id, { enabled: true, slug: SLUG });
  shopToken = (
    await request(partnerApi.url, 'POST', `/api/v2/shop/${SLUG}/holds`, { body: { ActivityID: activityId, Date: day, Time: '10:00', Participants: 1 } })
  ).body.Token as string;
});

interface Call {
  server: () => string;
  method: string;
  path: string;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

// A valid request of each operation with date members, built around the values under test (the rest are valid).
const CALLS: Record<string, (dates: Record<string, string>) => Call> = {
  listAvailableDates: (d) => ({
    server: () => partnerApi.url,
    method: 'GET',
    path: `/api/v2/ota/partner/availability/${activityId}/dates`,
    query: { StartDate: d.StartDate ?? day, EndDate: d.EndDate ?? day },
  }),
  listAvailableTimeslots: (d) => ({
    server: () => partnerApi.url,
    method: 'GET',
    path: `/api/v2/ota/partner/availability/${activityId}/timeslots`,
    query: { Date: d.Date ?? day },
  }),
  createBooking: (d) => ({
    server: () => partnerApi.url,
    method: 'POST',
    path: '/api/v2/ota/partner/booking',
    body: { ActivityID: activityId, Date: d.Date ?? day, Time: '10:00', Participants: 1, Customer: { FirstName: 'A', LastName: 'B', Email: 'a@example.com' } },
  }),
  confirmBooking: (d) => ({
    server: () => partnerApi.url,
    method: 'POST',
    path: `/api/v2/ota/partner/booking/${held}/confirm`,
    body: { Date: d.Date ?? day, Customer: { FirstName: 'A', LastName: 'B', Email: 'a@example.com' } },
  }),
  changeBooking: (d) => ({
    server: () => partnerApi.url,
    method: 'PATCH',
    path: `/api/v2/ota/partner/booking/${booked}`,
    body: { Date: d.Date ?? day, Time: '10:00' },
  }),
  syncBookings: (d) => ({
    server: () => partnerApi.url,
    method: 'GET',
    path: '/api/v2/ota/partner/bookings',
    query: { UpdatedSince: d.UpdatedSince ?? `${day}T00:00:00Z` },
  }),
  replayWebhookDeliveries: (d) => ({
    server: () => partnerApi.url,
    method: 'POST',
    path: `/api/v2/ota/partner/webhooks/${randomUUID()}/replay`,
    body: { Since: d.Since ?? `${day}T00:00:00Z` },
  }),
  listShopTimeslots: (d) => ({
    server: () => partnerApi.url,
    method: 'GET',
    path: `/api/v2/shop/${SLUG}/activities/${activityId}/timeslots`,
    query: { Date: d.Date ?? day },
  }),
  createShopHold: (d) => ({
    server: () => partnerApi.url,
    method: 'POST',
    path: `/api/v2/shop/${SLUG}/holds`,
    body: { ActivityID: activityId, Date: d.Date ?? day, Time: '10:00', Participants: 1 },
  }),
  joinShopWaitlist: (d) => ({
    server: () => partnerApi.url,
    method: 'POST',
    path: `/api/v2/shop/${SLUG}/waitlist`,
    body: {
      ActivityID: activityId,
      Date: d.Date ?? day,
      Time: '10:00',
      Participants: 1,
      Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+442079460958' },
    },
  }),
  moveShopBooking: (d) => ({
    server: () => partnerApi.url,
    method: 'POST',
    path: `/api/v2/shop/${SLUG}/bookings/${shopToken}/move`,
    body: { Date: d.Date ?? day, Time: '10:00' },
  }),
  getUsageSummary: (d) => ({ server: () => usageApi.url, method: 'GET', path: '/api/v2/usage/meters', query: { from: d.from ?? day, to: d.to ?? day } }),
  listOperatorBookings: (d) => ({
    server: () => operatorApi.url,
    method: 'GET',
    path: '/api/v2/operator/bookings',
    query: { From: d.From ?? day, To: d.To ?? day },
  }),
  exportOperatorBookings: (d) => ({
    server: () => operatorApi.url,
    method: 'GET',
    path: '/api/v2/operator/bookings.csv',
    query: { From: d.From ?? day, To: d.To ?? day },
  }),
  rescheduleOperatorBooking: (d) => ({
    server: () => operatorApi.url,
    method: 'POST',
    path: `/api/v2/operator/bookings/${booked}/reschedule`,
    body: { Date: d.Date ?? day, Time: '10:00' },
  }),
  getOperatorManifest: (d) => ({ server: () => operatorApi.url, method: 'GET', path: '/api/v2/operator/manifest', query: { Date: d.Date ?? day } }),
  getOperatorSalesReport: (d) => ({
    server: () => operatorApi.url,
    method: 'GET',
    path: '/api/v2/operator/reports/sales',
    query: { From: d.From ?? day, To: d.To ?? day },
  }),
  createSale: (d) => ({
    server: () => operatorApi.url,
    method: 'POST',
    path: '/api/v2/operator/sales',
    body: { ActivityID: activityId, Date: d.Date ?? day, Time: '10:00', Participants: 1, Customer: { FirstName: 'A', LastName: 'B', Email: 'a@example.com' } },
  }),
  listOperatorTimeslots: (d) => ({
    server: () => operatorApi.url,
    method: 'GET',
    path: `/api/v2/operator/activities/${activityId}/timeslots`,
    query: { From: d.From ?? day, To: d.To ?? day },
  }),
  getOperatorUsage: (d) => ({ server: () => operatorApi.url, method: 'GET', path: '/api/v2/operator/usage', query: { From: d.From ?? day, To: d.To ?? day } }),
  generateTimeslots: (d) => ({
    server: () => operatorApi.url,
    method: 'POST',
    path: `/api/v2/operator/activities/${activityId}/timeslots`,
    body: { From: d.From ?? day, To: d.To ?? day, Days: ['mon'], Times: ['07:00'], DryRun: true },
  }),
  listOperatorAudit: (d) => ({ server: () => operatorApi.url, method: 'GET', path: '/api/v2/operator/audit', query: { From: d.From ?? day, To: d.To ?? day } }),
  removeEmptyTimeslots: (d) => ({
    server: () => operatorApi.url,
    method: 'POST',
    path: `/api/v2/operator/activities/${activityId}/timeslots/remove-empty`,
    body: { From: d.From ?? day, To: d.To ?? day, DryRun: true },
  }),
};

type Format = 'date' | 'date-time';

/** The top-level date and date-time members of an operation's path, query and body. */
function dateMembers(op: Operation): Array<{ name: string; format: Format }> {
  const found: Array<{ name: string; format: Format }> = [];
  for (const part of [op.params, op.query, op.body] as Array<{ properties?: Record<string, { format?: string; properties?: unknown }> } | undefined>) {
    for (const [name, member] of Object.entries(part?.properties ?? {})) {
      if (member.format === 'date' || member.format === 'date-time') found.push({ name, format: member.format });
      // Dates nested in objects would need a case of their own here; none exist, and this keeps it so.
      expect(JSON.stringify(member.properties ?? {}), `${op.operationId}.${name}`).not.toMatch(/"format":"date/);
    }
  }
  return found;
}

const OPERATIONS = ALL_OPERATIONS.flatMap((op) => {
  const members = dateMembers(op);
  return members.length > 0 ? [{ op, members }] : [];
});

const REFUSED: Record<Format, string[]> = {
  date: ['0000-01-01', '0000-12-31', '10000-01-01', '2026-02-30', '2025-02-29', '2026-13-01', '2026-00-10', '2026-1-01'],
  'date-time': [
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:30:00+01:00',
    '9999-12-31T23:00:00-01:00',
    '10000-01-01T00:00:00Z',
    '2026-02-30T10:00:00Z',
    '2026-06-30T23:59:60Z',
  ],
};
const EDGES: Record<Format, string[]> = {
  date: ['0001-01-01', '9999-12-31', '2024-02-29'],
  'date-time': ['0001-01-01T00:00:00Z', '0001-01-01T01:00:00+01:00', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59.999Z'],
};

async function send(call: Call) {
  const query = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
  return request(call.server(), call.method, call.path + query, { key: tenant.key, ...(call.body ? { body: call.body } : {}) });
}

describe('every date member of every operation', () => {
  it('has a case here, so none is left out', () => {
    expect(OPERATIONS.map(({ op }) => op.operationId).sort()).toEqual(Object.keys(CALLS).sort());
  });

  for (const { op, members } of OPERATIONS) {
    for (const { name, format } of members) {
      it(`${op.operationId}: ${name} refuses ${REFUSED[format].join(', ')} with a 422 naming it`, async () => {
        for (const value of REFUSED[format]) {
          const answer = await send(CALLS[op.operationId]!({ [name]: value }));
          expect({ value, status: answer.status }).toEqual({ value, status: 422 });
          expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
          expect(answer.body.detail, value).toContain(name);
        }
      });
      it(`${op.operationId}: ${name} takes ${EDGES[format].join(', ')} without a server error`, async () => {
        for (const value of EDGES[format]) {
          const answer = await send(CALLS[op.operationId]!({ [name]: value }));
          expect({ value, status: answer.status, body: answer.status >= 500 ? answer.body : null }).toEqual({ value, status: expect.any(Number), body: null });
          expect(answer.status).toBeLessThan(500);
        }
      });
    }
    const names = members.map((m) => m.name);
    if (names.length === 2 && members.every((m) => m.format === 'date')) {
      it(`${op.operationId}: ${names.join(' and ')} over the whole range, and both on each edge, without a server error`, async () => {
        for (const [first, second] of [
          ['0001-01-01', '9999-12-31'],
          ['0001-01-01', '0001-01-01'],
          ['9999-12-31', '9999-12-31'],
        ] as const) {
          const answer = await send(CALLS[op.operationId]!({ [names[0]!]: first, [names[1]!]: second }));
          expect({ first, second, status: answer.status >= 500 ? answer.status : 'ok' }).toEqual({ first, second, status: 'ok' });
        }
      });
    }
  }
});

describe("OCTO's dates, checked by its use cases against the same rule", () => {
  const octo = (method: string, path: string, body?: unknown) =>
    request(partnerApi.url, method, path, { key: tenant.key, ...(body === undefined ? {} : { body }), headers: { 'octo-capabilities': 'octo/pricing' } });
  const CASES: Array<[string, (date: string) => Promise<Awaited<ReturnType<typeof octo>>>]> = [
    ['availability localDate', (date) => octo('POST', '/octo/availability', { productId: activityId, optionId: 'DEFAULT', localDate: date })],
    [
      'availability localDateStart/End',
      (date) => octo('POST', '/octo/availability', { productId: activityId, optionId: 'DEFAULT', localDateStart: date, localDateEnd: date }),
    ],
    [
      'calendar',
      (date) => octo('POST', '/octo/availability/calendar', { productId: activityId, optionId: 'DEFAULT', localDateStart: date, localDateEnd: date }),
    ],
    ['bookings localDate', (date) => octo('GET', `/octo/bookings?localDate=${date}`)],
    ['bookings localDateStart/End', (date) => octo('GET', `/octo/bookings?localDateStart=${date}&localDateEnd=${date}`)],
  ];
  for (const [name, call] of CASES) {
    it(`${name}: refuses year 0000 and 10000 with BAD_REQUEST, takes the edges without a server error`, async () => {
      for (const value of ['0000-01-01', '10000-01-01', '2026-02-30']) {
        const answer = await call(value);
        expect({ value, status: answer.status, error: answer.body?.error }).toEqual({ value, status: 400, error: 'BAD_REQUEST' });
      }
      for (const value of EDGES.date) expect((await call(value)).status, value).toBeLessThan(500);
    });
  }
});
