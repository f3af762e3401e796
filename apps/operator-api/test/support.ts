// Shared set-up of the operator API tests: the real app in-process over a fresh schema and a Redis prefix of its own,
// operator users made through the use cases, a cookie-keeping client, and bookings of every channel.
import { afterAll } from 'vitest';
import type { Pool } from '@backbone/db';
import type { FileStore } from '@backbone/file-store';
import type { Activity } from '@backbone/domain';
import type { SessionLifetimes } from '@backbone/http';
import { closeQueues, openQueues, type EventQueues } from '@backbone/publisher';
import { createTestOperatorApp } from '@backbone/test-apps/operator-api';
import {
  createTestAccount,
  createTestActivity,
  createTestTimeslot,
  request,
  useTestDatabase,
  useTestRedis,
  useTestServer,
  type ApiResponse,
  type TestAccount,
} from '@backbone/testkit';
import { createBooking, createOperatorUser } from '@backbone/use-cases';
import type { BookingChannel, OperatorRole } from '@backbone/contracts';

export { PROBLEM_BASE } from '@backbone/test-apps/operator-api';

export function useOperatorApi(
  options: {
    sessions?: Partial<SessionLifetimes>;
    signIn?: { maxFailures?: number; maxFailuresPerAddress?: number; windowSeconds?: number };
    consoleDir?: string;
    fileStore?: FileStore;
  } = {},
) {
  const db = useTestDatabase();
  const redis = useTestRedis();
  let queues: EventQueues | undefined;
  const server = useTestServer(() => {
    const connection = redis.connection();
    queues = openQueues(connection, redis.prefix);
    return createTestOperatorApp({ pool: db.pool, redis: connection, redisUrl: redis.redisUrl, prefix: redis.prefix, queues, ...options });
  });
  afterAll(async () => {
    if (queues) await closeQueues(queues);
  });
  return { db, redis, server, queues: () => queues! };
}

export const PASSWORD = 'correct horse battery';

export interface Operator extends TestAccount {
  activity: Activity;
  owner: { email: string };
  staff: { email: string };
}

let counter = 0;

export async function createOperator(pool: Pool): Promise<Operator> {
  const account = await createTestAccount(pool, { timeZone: 'Europe/Lisbon' });
  const activity = await createTestActivity(pool, account.account.id, { timeZone: 'Europe/Lisbon', name: `Kayak ${++counter}` });
  const user = async (role: OperatorRole) => {
    const email = `${role}-${counter}-${account.account.id.slice(0, 8)}@example.com`;
    await createOperatorUser({ pool }, { accountId: account.account.id, email, role, password: PASSWORD, actor: { kind: 'system' } });
    return { email };
  };
  return { ...account, activity, owner: await user('owner'), staff: await user('staff') };
}

let clientCount = 0;

/** A browser-like client: keeps the session cookie and sends the service's Origin on every request. */
export class SessionClient {
  cookie: string | null = null;
  readonly address = `10.${(clientCount >> 16) & 255}.${(clientCount >> 8) & 255}.${++clientCount & 255}`;
  constructor(
    private readonly baseUrl: string,
    private readonly origin: string = baseUrl,
  ) {}

  // Tests read arbitrary members of answers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async send<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    // Each client stands for another machine, so that one test's failed sign-ins do not throttle another's address.
    const all: Record<string, string> = { origin: this.origin, 'x-forwarded-for': this.address, ...headers };
    if (this.cookie) all.cookie = this.cookie;
    const response = await request<T>(this.baseUrl, method, path, { body, headers: all });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const pair = setCookie.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? null : pair;
    }
    return response;
  }

  async signIn(email: string, password = PASSWORD) {
    return this.send('POST', '/api/v2/operator/session', { Email: email, Password: password });
  }
}

export async function signedIn(baseUrl: string, email: string): Promise<SessionClient> {
  const client = new SessionClient(baseUrl);
  const answer = await client.signIn(email);
  if (answer.status !== 204) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  return client;
}

/** A future date in the activity's zone, `days` from today. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

export async function book(
  pool: Pool,
  operator: Operator,
  slot: { date: string; time: string },
  options: {
    channel?: BookingChannel;
    firstName?: string;
    lastName?: string;
    email?: string;
    paymentReference?: string | null;
    participants?: number;
    activity?: Activity;
  } = {},
) {
  const { value } = await createBooking(
    { pool },
    {
      accountId: operator.account.id,
      apiKeyId: null,
      partnerId: null,
      hold: null,
      channel: options.channel ?? 'online',
      activityId: (options.activity ?? operator.activity).activityId,
      date: slot.date,
      time: slot.time,
      participants: options.participants ?? 1,
      customer: { FirstName: options.firstName ?? 'Ada', LastName: options.lastName ?? 'Lovelace', Email: options.email ?? 'ada@example.com' },
      paymentReference: options.paymentReference ?? null,
      answers: undefined,
    },
  );
  return value;
}

export async function createSlot(pool: Pool, operator: Operator, date: string, time: string, capacity = 100, activity?: Activity) {
  return createTestTimeslot(pool, activity ?? operator.activity, { date, time, capacity });
}
