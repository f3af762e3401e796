// Shared set-up of the partner API tests: the real app in-process over a fresh schema, and an operator with a key,
// an activity in Europe/Berlin and a few future timeslots.
import http from 'node:http';
import type { ServerTimeouts } from '@backbone/http';
import { createTestPartnerApp, type TestPartnerAppOptions } from '@backbone/test-apps/partner-api';
import { createTestAccount, createTestActivity, useTestDatabase, useTestServer, type TestAccount } from '@backbone/testkit';
import type { Pool } from '@backbone/db';
import type { Activity } from '@backbone/domain';

export { createTestPartnerApp, PROBLEM_BASE } from '@backbone/test-apps/partner-api';

export function usePartnerApi(
  options: { poolSize?: number; bodyLimit?: string; timeouts?: ServerTimeouts; webhooks?: () => TestPartnerAppOptions['webhooks'] } = {},
) {
  const db = useTestDatabase({ poolSize: options.poolSize ?? 20 });
  const server = useTestServer(
    () => createTestPartnerApp(db.pool, { ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}), webhooks: options.webhooks?.() }),
    options,
  );
  return { db, server };
}

export interface Operator extends TestAccount {
  /** A key with only the ota scope. */
  ota: string;
  activity: Activity;
}

export async function createOperator(pool: Pool, options: { timeZone?: string; activity?: Parameters<typeof createTestActivity>[2] } = {}): Promise<Operator> {
  const account = await createTestAccount(pool, { timeZone: options.timeZone ?? 'Europe/Berlin' });
  const ota = await account.keyWith(['ota']);
  const activity = await createTestActivity(pool, account.account.id, { timeZone: options.timeZone ?? 'Europe/Berlin', ...options.activity });
  return { ...account, ota, activity };
}

export function bookingBody(activity: Activity, slot: { date: string; time: string }, overrides: Record<string, unknown> = {}) {
  return {
    ActivityID: activity.activityId,
    Date: slot.date,
    Time: slot.time,
    Participants: 1,
    Customer: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ada@example.com', Phone: '+44 20 7946 0958' },
    PaymentReference: 'PAY-123',
    ...overrides,
  };
}

/** Row counts, capacity totals, every booking's row (status, expiry, cancellation), every webhook endpoint's and delivery's row and every file's row and quota, that no failed request may change. */
export async function databaseFingerprint(pool: Pool) {
  const { rows } = await pool.query<Record<string, number>>(
    `SELECT (SELECT count(*) FROM bookings) AS bookings,
            (SELECT count(*) FROM outbox_events) AS events,
            (SELECT coalesce(sum(booked), 0) FROM timeslots) AS booked,
            (SELECT count(*) FROM timeslots) AS timeslots,
            (SELECT count(*) FROM activities) AS activities,
            (SELECT count(*) FROM waiver_questions) AS questions,
            (SELECT count(*) FROM idempotency_keys WHERE state = 'done') AS idempotency_answers,
            (SELECT count(*) FROM partners) AS partners,
            (SELECT md5(coalesce(string_agg(b::text, '|' ORDER BY b.id), '')) FROM bookings b) AS booking_rows,
            (SELECT md5(coalesce(string_agg(e::text, '|' ORDER BY e.id), '')) FROM webhook_endpoints e) AS webhook_endpoint_rows,
            (SELECT md5(coalesce(string_agg(d::text, '|' ORDER BY d.id), '')) FROM webhook_deliveries d) AS webhook_delivery_rows,
            (SELECT md5(coalesce(string_agg(f::text, '|' ORDER BY f.id), '')) FROM files f) AS file_rows,
            (SELECT md5(coalesce(string_agg(q::text, '|' ORDER BY q.account_id), '')) FROM file_quota_usage q) AS file_quota_rows`,
  );
  return rows[0]!;
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // Tests read arbitrary members of answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * A keep-alive HTTP client for load in tests: at most `maxSockets` connections, reused, so a thousand concurrent
 * requests queue on a realistic number of sockets instead of opening a thousand.
 */
export function keepAliveClient(baseUrl: string, maxSockets = 64) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const url = new URL(baseUrl);
  return {
    send(method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<RawResponse> {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      if (payload !== undefined) {
        headers['content-type'] = 'application/json';
        headers['content-length'] = String(Buffer.byteLength(payload));
      }
      return new Promise((resolve, reject) => {
        const req = http.request({ agent, host: url.hostname, port: url.port, method, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let body: unknown;
            try {
              body = text ? JSON.parse(text) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
          });
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(payload);
      });
    },
    close() {
      agent.destroy();
    },
  };
}

/** The stored counter of a timeslot next to what its live bookings (confirmed, and holds not yet released) hold. */
export async function timeslotLedger(pool: Pool, timeslotId: number) {
  const { rows } = await pool.query<{ booked: number; capacity: number; live: number; unexpired: number }>(
    `SELECT t.booked, t.capacity,
            (SELECT coalesce(sum(participants), 0) FROM bookings b WHERE b.timeslot_id = t.id AND b.status IN ('on_hold', 'confirmed'))::int AS live,
            (SELECT coalesce(sum(participants), 0) FROM bookings b
              WHERE b.timeslot_id = t.id AND (b.status = 'confirmed' OR (b.status = 'on_hold' AND b.expires_at > now())))::int AS unexpired
       FROM timeslots t WHERE t.id = $1`,
    [timeslotId],
  );
  return rows[0]!;
}

/** How many outbox events of `type` name this booking. */
export async function eventCount(pool: Pool, reference: string, type: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM outbox_events WHERE type = $1 AND payload->>'Reference' = $2`, [
    type,
    reference,
  ]);
  return rows[0]!.n;
}

export const bookingPath = (reference: string, action = '') => `/api/v2/ota/partner/booking/${reference}${action ? `/${action}` : ''}`;
