// The permission table against the running API: every operator operation in the contracts' list is called as staff,
// as an owner and with an admin key, each time with a request that passes validation. Staff get 403 `/forbidden`
// exactly where the table leaves them out, and the refused request changes nothing; everywhere else, and for owners
// and admin keys always, the operation answers as it does for anyone allowed. A new operation needs a request below
// (the map is typed by the table's operation ids) and is then walked like the others.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_OPERATIONS, OPERATOR_PERMISSIONS, OPERATOR_ROLES, operatorMay, type OperatorOperationId, type SessionOperation } from '@backbone/contracts';
import { createApiKey, joinWaitlist } from '@backbone/db';
import { failPlatformEvent } from '@backbone/test-apps/operator-api';
import { createDirectoryFileStore } from '@backbone/file-store';
import { request, sampleFile, type ApiResponse } from '@backbone/testkit';
import { createOperatorUser, inviteOperatorUser, uploadFile } from '@backbone/use-cases';
import { book, createOperator, createSlot, dayFromNow, PASSWORD, PROBLEM_BASE, SessionClient, signedIn, useOperatorApi, type Operator } from './support.js';

const fileStore = createDirectoryFileStore(mkdtempSync(path.join(os.tmpdir(), 'backbone-permissions-files-')));
const { db, redis, server, queues } = useOperatorApi({ fileStore });

let operator: Operator;
let staff: SessionClient;
let owner: SessionClient;
let slot: { id: number; date: string; time: string };
let later: { date: string; time: string };
let reference: string;
let fileId: string;
let fullSlot: { id: number; date: string; time: string };
let made = 0;

beforeAll(async () => {
  operator = await createOperator(db.pool);
  staff = await signedIn(server.url, operator.staff.email);
  owner = await signedIn(server.url, operator.owner.email);
  const date = dayFromNow(5);
  slot = { ...(await createSlot(db.pool, operator, date, '10:00', 100)), date, time: '10:00' };
  reference = (await book(db.pool, operator, { date, time: '10:00' })).Reference;
  later = { date, time: '15:00' };
  await createSlot(db.pool, operator, later.date, later.time, 100);
  fullSlot = { ...(await createSlot(db.pool, operator, date, '18:00', 1)), date, time: '18:00' };
  await book(db.pool, operator, { date, time: '18:00' });
  const partnerKey = await createApiKey(db.pool, operator.account.id, { name: 'Partner', scopes: ['ota'] });
  const pdf = sampleFile('application/pdf', 2000);
  const uploaded = await uploadFile(
    { pool: db.pool, fileStore, fileQuotaBytes: 1_000_000 },
    {
      accountId: operator.account.id,
      uploader: { partnerId: partnerKey.partnerId! },
      apiKeyId: partnerKey.id,
      contentType: 'application/pdf',
      length: pdf.length,
      fileName: 'waiver.pdf',
      body: Readable.from([pdf]),
      clientConnected: () => true,
    },
  );
  fileId = uploaded.FileID;
});

/** A waiting entry on the roomy timeslot (written past the join's rule, which keeps callers off a slot with places). */
const freshEntry = async () =>
  (
    await joinWaitlist(db.pool, {
      accountId: operator.account.id,
      timeslotId: slot.id,
      participants: 1,
      contact: { FirstName: 'Wait', LastName: 'Ing', Email: `waiting-${++made}@example.com` },
      channel: 'pos',
    })
  ).entry.id;

const freshBooking = async () => (await book(db.pool, operator, { date: slot.date, time: slot.time })).Reference;

/** A request that passes validation, and the answer an allowed caller gets. */
interface Call {
  params?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  /** A body that is not JSON (a file upload): its bytes and media type. */
  rawBody?: { bytes: Uint8Array; contentType: string };
  status: number;
  /** What an admin key gets, where it differs from a user (it has no password to change). */
  keyStatus?: number;
  /** After a refused call: what must still hold besides an unchanged database (for writes outside PostgreSQL). */
  unchanged?: () => Promise<void>;
}

/** Makes the call afresh for each caller: a call that disables, revokes or replays something needs a thing of its own. */
const CALLS: { readonly [Id in OperatorOperationId]: () => Promise<Call> } = {
  getOperatorSession: async () => ({ status: 200 }),
  // The same password again: checked and refused (422), so the shared sessions' passwords stay as they are.
  changeOwnPassword: async () => ({ body: { CurrentPassword: PASSWORD, NewPassword: PASSWORD }, status: 422, keyStatus: 403 }),
  listOperatorBookings: async () => ({ query: 'Limit=5', status: 200 }),
  exportOperatorBookings: async () => ({ status: 200 }),
  getOperatorBooking: async () => ({ params: { Reference: reference }, status: 200 }),
  cancelOperatorBooking: async () => ({ params: { Reference: await freshBooking() }, body: { Reason: 'Storm' }, status: 200 }),
  rescheduleOperatorBooking: async () => ({ params: { Reference: await freshBooking() }, body: { Date: later.date, Time: later.time }, status: 200 }),
  changeOperatorBooking: async () => ({ params: { Reference: await freshBooking() }, body: { Participants: 2, Note: 'Vegan' }, status: 200 }),
  checkInOperatorBooking: async () => ({ params: { Reference: await freshBooking() }, status: 200 }),
  undoOperatorCheckIn: async () => ({ params: { Reference: reference }, status: 200 }),
  getOperatorManifest: async () => ({ query: `Date=${slot.date}`, status: 200 }),
  listOperatorBookingHistory: async () => ({ params: { Reference: reference }, status: 200 }),
  getOperatorSalesReport: async () => ({ query: `From=${dayFromNow(-30)}&To=${dayFromNow(30)}`, status: 200 }),
  downloadOperatorFile: async () => ({ params: { FileID: fileId }, status: 200 }),
  uploadOperatorFile: async () => ({ rawBody: { bytes: sampleFile('image/png', 1500), contentType: 'image/png' }, status: 201 }),
  listOperatorActivities: async () => ({ status: 200 }),
  createSale: async () => ({
    body: {
      ActivityID: operator.activity.activityId,
      Date: slot.date,
      Time: slot.time,
      Participants: 1,
      Customer: { FirstName: 'Walk', LastName: 'In', Email: 'walk@example.com' },
    },
    status: 201,
  }),
  listOperatorTimeslots: async () => ({ params: { ActivityID: operator.activity.activityId }, query: `From=${slot.date}&To=${slot.date}`, status: 200 }),
  closeTimeslot: async () => ({ params: { TimeslotID: slot.id }, status: 200 }),
  reopenTimeslot: async () => ({ params: { TimeslotID: slot.id }, status: 200 }),
  changeTimeslotCapacity: async () => ({ params: { TimeslotID: slot.id }, body: { Capacity: 90 }, status: 200 }),
  listTimeslotWaitlist: async () => ({ params: { TimeslotID: fullSlot.id }, status: 200 }),
  addWaitlistEntry: async () => ({
    params: { TimeslotID: fullSlot.id },
    body: { Participants: 1, Customer: { FirstName: 'Phone', LastName: 'Caller', Email: `caller-${++made}@example.com` } },
    status: 201,
  }),
  removeWaitlistEntry: async () => ({ params: { WaitlistID: await freshEntry() }, status: 200 }),
  offerWaitlistEntry: async () => ({ params: { WaitlistID: await freshEntry() }, status: 200 }),
  bookWaitlistEntry: async () => ({ params: { WaitlistID: await freshEntry() }, status: 200 }),
  listOperatorKeys: async () => ({ status: 200 }),
  createOperatorKey: async () => ({ body: { Name: `Key ${++made}`, Scopes: ['usage:read'] }, status: 201 }),
  revokeOperatorKey: async () => ({
    params: { KeyID: (await createApiKey(db.pool, operator.account.id, { name: `Doomed ${++made}`, scopes: ['usage:read'] })).id },
    status: 204,
  }),
  getOperatorUsage: async () => ({ query: `From=${dayFromNow(-7)}&To=${dayFromNow(0)}`, status: 200 }),
  listFailedEvents: async () => ({ status: 200 }),
  replayFailedEvent: async () => {
    const jobId = await failPlatformEvent(redis.connection(), redis.prefix, operator.account.id, `basket-${++made}`);
    return {
      params: { JobID: jobId },
      status: 204,
      unchanged: async () => expect(await (await queues()['platform-events'].getJob(jobId))!.getState()).toBe('failed'),
    };
  },
  createOperatorActivity: async () => ({
    body: { Name: `Tour ${++made}`, DurationMinutes: 60, TimeZone: 'Europe/Lisbon', Price: { Amount: 1000, Currency: 'EUR' }, MaxParticipants: 4 },
    status: 201,
  }),
  editOperatorActivity: async () => ({ params: { ActivityID: operator.activity.activityId }, body: { Description: `Edited ${++made}` }, status: 200 }),
  listOperatorQuestions: async () => ({ params: { ActivityID: operator.activity.activityId }, status: 200 }),
  addOperatorQuestion: async () => ({
    params: { ActivityID: operator.activity.activityId },
    body: { Question: `Question ${++made}?`, Type: 'text' },
    status: 201,
  }),
  generateTimeslots: async () => ({
    params: { ActivityID: operator.activity.activityId },
    body: { From: dayFromNow(20), To: dayFromNow(26), Days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], Times: ['09:00'], Capacity: 8 },
    status: 201,
  }),
  removeEmptyTimeslots: async () => ({
    params: { ActivityID: operator.activity.activityId },
    body: { From: dayFromNow(20), To: dayFromNow(26), Times: ['09:00'] },
    status: 200,
  }),
  listOperatorUsers: async () => ({ status: 200 }),
  createOperatorUser: async () => ({ body: { Email: `new-${++made}@example.com`, Role: 'staff' }, status: 201 }),
  disableOperatorUser: async () => {
    const { user } = await createOperatorUser(
      { pool: db.pool },
      { accountId: operator.account.id, email: `leaving-${++made}@example.com`, role: 'staff', actor: { kind: 'system' } },
    );
    return { params: { UserID: user.id }, status: 200 };
  },
  listOperatorInvitations: async () => ({ status: 200 }),
  inviteOperatorUser: async () => ({ body: { Email: `invited-${++made}@example.com`, Name: 'Invited', Role: 'staff' }, status: 201 }),
  resendOperatorInvitation: async () => {
    const invitation = await inviteOperatorUser(
      { pool: db.pool },
      { accountId: operator.account.id, email: `resent-${++made}@example.com`, name: 'Resent', role: 'staff', invitedBy: 'test', actor: { kind: 'system' } },
    );
    return { params: { InvitationID: invitation.id }, status: 200 };
  },
  revokeOperatorInvitation: async () => {
    const invitation = await inviteOperatorUser(
      { pool: db.pool },
      { accountId: operator.account.id, email: `revoked-${++made}@example.com`, name: 'Revoked', role: 'staff', invitedBy: 'test', actor: { kind: 'system' } },
    );
    return { params: { InvitationID: invitation.id }, status: 204 };
  },
  listOperatorAudit: async () => ({ query: 'Action=user.created&Limit=5', status: 200 }),
  getMailSettings: async () => ({ status: 200 }),
  updateMailSettings: async () => ({ body: { ReminderHours: 24 + (++made % 10) }, status: 200 }),
  previewMail: async () => ({ body: { Kind: 'confirmation' }, status: 200 }),
  sendTestMail: async () => ({ body: { Kind: 'reminder', To: `owner-test-${++made}@example.com` }, status: 201 }),
  listMailMessages: async () => ({ query: 'Limit=5', status: 200 }),
  setPartnerCustomerEmails: async () => ({
    params: { PartnerID: (await createApiKey(db.pool, operator.account.id, { name: `Reseller ${++made}`, scopes: ['ota'] })).partnerId! },
    body: { Enabled: true },
    status: 204,
  }),
  getOperatorBookingPage: async () => ({ status: 200 }),
  updateOperatorBookingPage: async () => ({ body: { Note: `Note ${++made}` }, status: 200 }),
};

const SESSION_OPERATIONS = OPERATOR_OPERATIONS.filter(
  (op): op is Extract<(typeof OPERATOR_OPERATIONS)[number], SessionOperation> => op.auth === 'session-or-key',
);

type Caller = 'staff' | 'owner' | 'admin key';

/** Calls `op` as `caller`. */
async function send(caller: Caller, op: (typeof SESSION_OPERATIONS)[number], call: Call, pathFor = pathOf): Promise<ApiResponse> {
  const path = pathFor(op.path, call);
  const method = op.method.toUpperCase();
  const raw = call.rawBody ? { rawBody: call.rawBody.bytes, headers: { 'content-type': call.rawBody.contentType } } : { body: call.body };
  if (caller === 'admin key') return request(server.url, method, path, { key: operator.key, ...raw });
  const client = caller === 'staff' ? staff : owner;
  if (call.rawBody) {
    return request(server.url, method, path, {
      rawBody: call.rawBody.bytes,
      headers: { 'content-type': call.rawBody.contentType, origin: server.url, 'x-forwarded-for': client.address, cookie: client.cookie! },
    });
  }
  return client.send(method, path, call.body);
}

function pathOf(template: string, call: Call): string {
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(call.params?.[name])));
  return call.query ? `${path}?${call.query}` : path;
}

/** Every table of the test's schema but the sessions (each request moves its session's idle clock), row by row. */
async function snapshot(): Promise<Record<string, string>> {
  const { rows: tables } = await db.pool.query<{ name: string }>(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'operator_sessions' ORDER BY 1`,
  );
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await db.pool.query<{ digest: string }>(
      `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${name}" t`,
    );
    state[name] = rows[0]!.digest;
  }
  return state;
}

describe('the permission table', () => {
  it('has one row per operator operation that a session calls, and only the ways in (sign-in, an invitation, a reset) need none', () => {
    expect(Object.keys(OPERATOR_PERMISSIONS).sort()).toEqual(SESSION_OPERATIONS.map((op) => op.operationId).sort());
    expect(OPERATOR_OPERATIONS.filter((op) => op.auth !== 'session-or-key').map((op) => [op.operationId, op.auth])).toEqual([
      ['signIn', 'none'],
      ['signOut', 'none'],
      ['chooseOperatorAccount', 'none'],
      ['openOperatorInvitation', 'none'],
      ['acceptOperatorInvitation', 'none'],
      ['requestPasswordReset', 'none'],
      ['completePasswordReset', 'none'],
    ]);
  });

  it('lets owners call everything, and names only known roles', () => {
    for (const [operationId, roles] of Object.entries(OPERATOR_PERMISSIONS)) {
      expect(roles[0], operationId).toBe('owner');
      expect(new Set(roles).size, operationId).toBe(roles.length);
      for (const role of roles) expect(OPERATOR_ROLES, operationId).toContain(role);
    }
  });

  it("keeps staff to the day's bookings: looking up, selling, the availability they sell from, the waitlists, their session and password, the booking page's link", () => {
    const forStaff = Object.keys(OPERATOR_PERMISSIONS).filter((id) => operatorMay('staff', id as OperatorOperationId));
    expect(forStaff.sort()).toEqual(
      [
        'getOperatorSession',
        'changeOwnPassword',
        'listOperatorBookings',
        'exportOperatorBookings',
        'getOperatorBooking',
        'cancelOperatorBooking',
        'rescheduleOperatorBooking',
        'changeOperatorBooking',
        'checkInOperatorBooking',
        'undoOperatorCheckIn',
        'getOperatorManifest',
        'listOperatorBookingHistory',
        'getOperatorSalesReport',
        'downloadOperatorFile',
        'uploadOperatorFile',
        'createSale',
        'listOperatorActivities',
        'listOperatorQuestions',
        'listOperatorTimeslots',
        'getOperatorUsage',
        'getOperatorBookingPage',
        'listTimeslotWaitlist',
        'addWaitlistEntry',
        'removeWaitlistEntry',
        'offerWaitlistEntry',
        'bookWaitlistEntry',
      ].sort(),
    );
  });
});

describe('every operator operation as staff', () => {
  it.each(SESSION_OPERATIONS.map((op) => [op.operationId, op] as const))('%s', async (operationId, op) => {
    const call = await CALLS[operationId]();
    if (operatorMay('staff', operationId)) {
      const answer = await send('staff', op, call);
      expect(answer.status, answer.text).toBe(call.status);
      return;
    }
    const before = await snapshot();
    const refused = await send('staff', op, call);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.body).toMatchObject({ type: `${PROBLEM_BASE}/forbidden`, status: 403 });
    expect(await snapshot()).toEqual(before);
    await call.unchanged?.();
    // Refused before its path, query and body are read: invalid ones get the same 403, not a 400 or 422.
    const invalid = await send(
      'staff',
      op,
      { ...call, body: call.body === undefined ? undefined : { Unknown: true } },
      (template) => `${template.replace(/:(\w+)/g, 'not-valid')}?Unknown=1`,
    );
    expect(invalid.status, invalid.text).toBe(403);
  });
});

describe.each(['owner', 'admin key'] as const)('every operator operation as %s', (caller) => {
  it.each(SESSION_OPERATIONS.map((op) => [op.operationId, op] as const))('%s', async (operationId, op) => {
    const call = await CALLS[operationId]();
    const answer = await send(caller, op, call);
    expect(answer.status, answer.text).toBe(caller === 'admin key' ? (call.keyStatus ?? call.status) : call.status);
  });
});

describe("the schedule is the owner's", () => {
  it("refuses staff generating timeslots (403) and creates none; an owner's same request creates them", async () => {
    const count = async () =>
      Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM timeslots WHERE activity_id = $1', [operator.activity.id])).rows[0]!.n);
    const pattern = {
      From: dayFromNow(40),
      To: dayFromNow(40),
      Days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
      Times: ['08:00', '18:00'],
      Capacity: 5,
    };
    const path = `/api/v2/operator/activities/${operator.activity.activityId}/timeslots`;
    const before = await count();
    const refused = await staff.send('POST', path, pattern);
    expect(refused.status).toBe(403);
    expect(refused.body.type).toBe(`${PROBLEM_BASE}/forbidden`);
    expect(await count()).toBe(before);
    const created = await owner.send('POST', path, pattern);
    expect(created.status).toBe(201);
    expect(created.body.Created).toBe(2);
    expect(await count()).toBe(before + 2);
  });
});

describe('signing in', () => {
  it('needs no session: it is in no row of the table', async () => {
    const client = new SessionClient(server.url);
    expect((await client.signIn(operator.staff.email, PASSWORD)).status).toBe(204);
    expect(client.cookie).not.toBeNull();
  });
});
