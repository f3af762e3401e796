// The desk's uploads (POST /api/v2/operator/files, issue 39): a console user uploads a photo of a signed paper waiver
// and answers a file question with it in a sale or an edit; the file is the account's, recorded as the user's, and
// only the account's operator answers with it: another account's staff, a partner of the account and the booking page
// get the 404 of a file that does not exist, and another account cannot download it. Refused uploads (over 10 MiB, not
// the declared type, no session, another origin) answer a problem and leave nothing: no row, no quota taken.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveBookingPage } from '@backbone/db';
import { createDirectoryFileStore } from '@backbone/file-store';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestQuestion, request, sampleFile, serveTestApp, type TestServer } from '@backbone/testkit';
import { createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const fileStore = createDirectoryFileStore(mkdtempSync(path.join(os.tmpdir(), 'backbone-desk-files-')));
const { db, server } = useOperatorApi({ fileStore });
let partnerApi: TestServer;
let operator: Operator;
let other: Operator;
let owner: SessionClient;
let staff: SessionClient;
let outsider: SessionClient;
let waiver: number;
let note: number;
let otherWaiver: number;
const date = dayFromNow(9);
const MAX_BYTES = 10 * 1024 * 1024;

beforeAll(async () => {
  partnerApi = await serveTestApp(createTestPartnerApp(db.pool, { fileStore }));
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  staff = await signedIn(server.url, operator.staff.email);
  outsider = await signedIn(server.url, other.staff.email);
  waiver = (await createTestQuestion(db.pool, operator.activity, { question: 'Signed waiver', type: 'file', required: true })).id;
  note = (await createTestQuestion(db.pool, operator.activity, { question: 'Anything else?', type: 'text', required: false })).id;
  otherWaiver = (await createTestQuestion(db.pool, other.activity, { question: 'Signed waiver', type: 'file', required: false })).id;
  for (const time of ['09:00', '11:00']) await createSlot(db.pool, operator, date, time, 20);
  await createSlot(db.pool, other, date, '09:00', 20);
});
afterAll(() => partnerApi.close());

/** An upload as the console sends it: the session's cookie, the console's Origin, the file as the raw body. */
function uploadAs(client: SessionClient, bytes: Uint8Array, type: string, name?: string, headers: Record<string, string> = {}) {
  return request(server.url, 'POST', '/api/v2/operator/files', {
    rawBody: bytes,
    headers: {
      origin: server.url,
      cookie: client.cookie!,
      'content-type': type,
      ...(name === undefined ? {} : { 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` }),
      ...headers,
    },
  });
}

async function uploaded(client: SessionClient, bytes: Uint8Array, type: string, name: string): Promise<string> {
  const res = await uploadAs(client, bytes, type, name);
  expect(res.status, res.text).toBe(201);
  return res.body.FileID as string;
}

const sale = (answers: unknown[], time = '09:00', activityId = operator.activity.activityId) => ({
  ActivityID: activityId,
  Date: date,
  Time: time,
  Participants: 2,
  Customer: { FirstName: 'Marta', LastName: 'Silva' },
  Answers: answers,
});

async function accountFiles(accountId: string) {
  const { rows } = await db.pool.query<{ n: number; bytes: string | null }>(
    `SELECT (SELECT count(*) FROM files WHERE account_id = $1)::int AS n, (SELECT bytes FROM file_quota_usage WHERE account_id = $1) AS bytes`,
    [accountId],
  );
  return rows[0]!;
}

async function bookingsOf(accountId: string): Promise<number> {
  const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM bookings WHERE account_id = $1`, [accountId]);
  return rows[0]!.n;
}

describe('a file uploaded at the desk', () => {
  let photo: Buffer;
  let fileId: string;
  let reference: string;

  it("is stored for the account as the staff user's upload, its name and size answered", async () => {
    photo = sampleFile('image/jpeg', 48_000);
    const before = await accountFiles(operator.account.id);
    const res = await uploadAs(staff, photo, 'image/jpeg', 'Marta Silva – signed waiver (paper) 2026-11-29, photographed at the desk.jpg');
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toMatchObject({
      FileID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      Name: 'Marta Silva – signed waiver (paper) 2026-11-29, photographed at the desk.jpg',
      ContentType: 'image/jpeg',
      Size: 48_000,
      SHA256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    fileId = res.body.FileID;
    const { rows } = await db.pool.query(
      `SELECT f.status, f.operator_upload, f.partner_id, f.hold_booking_id, f.api_key_id, u.email
         FROM files f LEFT JOIN operator_users u ON u.id = f.uploaded_by_user_id WHERE f.id = $1`,
      [fileId],
    );
    expect(rows).toEqual([{ status: 'stored', operator_upload: true, partner_id: null, hold_booking_id: null, api_key_id: null, email: operator.staff.email }]);
    const after = await accountFiles(operator.account.id);
    expect(Number(after.bytes) - Number(before.bytes ?? 0)).toBe(48_000);
  });

  it('answers a file question of a sale; the booking keeps it and the desk downloads it', async () => {
    const sold = await staff.send('POST', '/api/v2/operator/sales', sale([{ QuestionID: waiver, FileID: fileId }]));
    expect(sold.status, sold.text).toBe(201);
    reference = sold.body.Reference;
    const seen = await owner.send('GET', `/api/v2/operator/bookings/${reference}`);
    expect(seen.body.Answers).toEqual([
      {
        QuestionID: waiver,
        Question: 'Signed waiver',
        Type: 'file',
        Participant: null,
        Value: fileId,
        File: { FileID: fileId, Name: 'Marta Silva – signed waiver (paper) 2026-11-29, photographed at the desk.jpg', ContentType: 'image/jpeg', Size: 48_000 },
      },
    ]);
    const { rows } = await db.pool.query(`SELECT b.reference FROM files f JOIN bookings b ON b.id = f.booking_id WHERE f.id = $1`, [fileId]);
    expect(rows).toEqual([{ reference }]);
    const download = await fetch(`${server.url}/api/v2/operator/files/${fileId}`, { headers: { cookie: staff.cookie! } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(Buffer.from(await download.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('is replaced in an edit by another upload; the same answers sent again keep it; the history says who', async () => {
    const scan = sampleFile('application/pdf', 20_000);
    const replacement = await uploaded(owner, scan, 'application/pdf', 'waiver-rescanned.pdf');
    const edited = await owner.send('PATCH', `/api/v2/operator/bookings/${reference}`, {
      Answers: [
        { QuestionID: waiver, FileID: replacement },
        { QuestionID: note, Value: 'ID seen' },
      ],
    });
    expect(edited.status, edited.text).toBe(200);
    const seen = await staff.send('GET', `/api/v2/operator/bookings/${reference}`);
    expect(seen.body.Answers[0].File).toEqual({ FileID: replacement, Name: 'waiver-rescanned.pdf', ContentType: 'application/pdf', Size: 20_000 });
    const again = await staff.send('PATCH', `/api/v2/operator/bookings/${reference}`, {
      Answers: [
        { QuestionID: waiver, FileID: replacement.toUpperCase() },
        { QuestionID: note, Value: 'ID seen, twice' },
      ],
    });
    expect(again.status, again.text).toBe(200);
    const history = await owner.send('GET', `/api/v2/operator/bookings/${reference}/history`);
    expect(history.status).toBe(200);
    expect(history.body.Items.map((i: { Action: string; Actor: { UserEmail: string } }) => [i.Action, i.Actor.UserEmail])).toEqual([
      ['created', operator.staff.email],
      ['edited', operator.owner.email],
      ['edited', operator.staff.email],
    ]);
  });

  it('cannot answer a second booking: 409 file-in-use, nothing sold', async () => {
    const before = await bookingsOf(operator.account.id);
    const refused = await staff.send('POST', '/api/v2/operator/sales', sale([{ QuestionID: waiver, FileID: fileId }], '11:00'));
    expect(refused.status).toBe(409);
    expect(refused.body.type).toBe(`${PROBLEM_BASE}/file-in-use`);
    expect(await bookingsOf(operator.account.id)).toBe(before);
  });

  it("answers a partner's booking edited at the desk, which the partner may then send back unchanged", async () => {
    const ota = await operator.keyWith(['ota']);
    const booked = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
      key: ota,
      body: {
        ActivityID: operator.activity.activityId,
        Date: date,
        Time: '11:00',
        Participants: 1,
        Customer: { FirstName: 'Ana', LastName: 'Costa', Email: 'ana@example.com' },
      },
    });
    expect(booked.status, booked.text).toBe(201);
    const deskFile = await uploaded(staff, sampleFile('image/png', 9_000), 'image/png', 'id-card.png');
    const edited = await staff.send('PATCH', `/api/v2/operator/bookings/${booked.body.Reference}`, { Answers: [{ QuestionID: waiver, FileID: deskFile }] });
    expect(edited.status, edited.text).toBe(200);
    const resent = await request(partnerApi.url, 'PATCH', `/api/v2/ota/partner/booking/${booked.body.Reference}`, {
      key: ota,
      body: { Answers: [{ QuestionID: waiver, FileID: deskFile }] },
    });
    expect(resent.status, resent.text).toBe(200);
  });
});

describe('the tenant walls', () => {
  let fileId: string;

  beforeAll(async () => {
    fileId = await uploaded(staff, sampleFile('application/pdf', 5_000), 'application/pdf', 'walled.pdf');
  });

  it("another account's staff can neither sell with it nor download it: 404 as for no file", async () => {
    const before = await bookingsOf(other.account.id);
    const sold = await outsider.send('POST', '/api/v2/operator/sales', sale([{ QuestionID: otherWaiver, FileID: fileId }], '09:00', other.activity.activityId));
    expect(sold.status).toBe(404);
    expect(sold.body.detail).toContain('Answers[0].FileID');
    expect(await bookingsOf(other.account.id)).toBe(before);
    const download = await fetch(`${server.url}/api/v2/operator/files/${fileId}`, { headers: { cookie: outsider.cookie! } });
    expect(download.status).toBe(404);
    const byKey = await fetch(`${server.url}/api/v2/operator/files/${fileId}`, { headers: { authorization: `Bearer ${other.key}` } });
    expect(byKey.status).toBe(404);
  });

  it('a partner of the account cannot book with it: 404, nothing booked', async () => {
    const before = await bookingsOf(operator.account.id);
    const booked = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
      key: await operator.keyWith(['ota']),
      body: { ...sale([{ QuestionID: waiver, FileID: fileId }]), Customer: { FirstName: 'Ana', LastName: 'Costa', Email: 'ana@example.com' } },
    });
    expect(booked.status).toBe(404);
    expect(booked.body.detail).toContain('Answers[0].FileID');
    expect(await bookingsOf(operator.account.id)).toBe(before);
  });

  it("the account's booking page cannot confirm a hold with it: 404, the hold still a hold", async () => {
    const slug = `desk-files-${operator.account.id.slice(0, 8)}`;
    const saved = await saveBookingPage(db.pool, operator.account.id, { enabled: true, slug });
    expect(typeof saved).not.toBe('string');
    const shop = (method: string, rest: string, body?: unknown) => request(partnerApi.url, method, `/api/v2/shop/${slug}${rest}`, { body });
    const held = await shop('POST', '/holds', { ActivityID: operator.activity.activityId, Date: date, Time: '11:00', Participants: 1 });
    expect(held.status, held.text).toBe(201);
    const confirmed = await shop('POST', `/holds/${held.body.Token}/confirm`, {
      Customer: { FirstName: 'Rui', LastName: 'Lopes', Email: 'rui@example.com', Phone: '+351 21 000 0000' },
      Answers: [{ QuestionID: waiver, FileID: fileId }],
    });
    expect(confirmed.status, confirmed.text).toBe(404);
    expect(confirmed.body.detail).toContain('Answers[0].FileID');
    expect((await shop('GET', `/bookings/${held.body.Token}`)).body.Status).toBe('on_hold');
  });

  it('an admin key of the account uploads as the desk too, and another account cannot use that file either', async () => {
    const res = await request(server.url, 'POST', '/api/v2/operator/files', {
      key: operator.key,
      rawBody: sampleFile('image/webp', 3_000),
      headers: { 'content-type': 'image/webp' },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.Name).toBe('upload.webp');
    const { rows } = await db.pool.query(`SELECT operator_upload, uploaded_by_user_id, api_key_id IS NOT NULL AS by_key FROM files WHERE id = $1`, [
      res.body.FileID,
    ]);
    expect(rows).toEqual([{ operator_upload: true, uploaded_by_user_id: null, by_key: true }]);
    const sold = await request(server.url, 'POST', '/api/v2/operator/sales', {
      key: other.key,
      body: sale([{ QuestionID: otherWaiver, FileID: res.body.FileID }], '09:00', other.activity.activityId),
    });
    expect(sold.status).toBe(404);
  });
});

describe('refused, nothing kept', () => {
  let before: Awaited<ReturnType<typeof accountFiles>>;
  beforeAll(async () => {
    before = await accountFiles(operator.account.id);
  });
  afterAll(async () => {
    expect(await accountFiles(operator.account.id)).toEqual(before);
  });

  it('413 for one byte over 10 MiB', async () => {
    const over = await uploadAs(staff, sampleFile('application/pdf', MAX_BYTES + 1), 'application/pdf', 'huge.pdf');
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ type: `${PROBLEM_BASE}/payload-too-large`, status: 413, MaxBytes: MAX_BYTES });
    expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it.each([
    ['a PNG sent as image/jpeg', sampleFile('image/png', 4_000), 'image/jpeg'],
    ['an executable sent as application/pdf', sampleFile('exe', 4_000), 'application/pdf'],
    ['text sent as text/plain', sampleFile('text', 4_000), 'text/plain'],
    ['a multipart form', sampleFile('text', 4_000), 'multipart/form-data; boundary=x'],
  ])('415 for %s: the type is sniffed from the bytes', async (_what, bytes, type) => {
    const res = await uploadAs(staff, bytes, type, 'scan.jpg');
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unsupported-media-type`, status: 415 });
  });

  it('400 for an empty file, 401 without a session, 403 from another origin or with a key without admin', async () => {
    expect((await uploadAs(staff, new Uint8Array(), 'application/pdf')).status).toBe(400);
    const pdf = sampleFile('application/pdf', 2_000);
    const anonymous = await request(server.url, 'POST', '/api/v2/operator/files', { rawBody: pdf, headers: { 'content-type': 'application/pdf' } });
    expect(anonymous.status).toBe(401);
    const elsewhere = await uploadAs(staff, pdf, 'application/pdf', 'x.pdf', { origin: 'https://evil.example' });
    expect(elsewhere.status).toBe(403);
    const ota = await request(server.url, 'POST', '/api/v2/operator/files', {
      key: await operator.keyWith(['ota']),
      rawBody: pdf,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(ota.status).toBe(403);
  });

  it('a sale naming an unknown FileID is a 404, one that is no UUID a 422, one for a text question a 422; nothing sold', async () => {
    const sold = await bookingsOf(operator.account.id);
    const unknown = await staff.send('POST', '/api/v2/operator/sales', sale([{ QuestionID: waiver, FileID: '0b6f1c9e-4c1d-4f8a-9d3e-2f7c5a1b9e00' }]));
    expect(unknown.status).toBe(404);
    expect(unknown.body.type).toBe(`${PROBLEM_BASE}/not-found`);
    const malformed = await staff.send('POST', '/api/v2/operator/sales', sale([{ QuestionID: waiver, FileID: 'waiver.pdf' }]));
    expect(malformed.status).toBe(422);
    const wrongQuestion = await staff.send('POST', '/api/v2/operator/sales', sale([{ QuestionID: note, FileID: '0b6f1c9e-4c1d-4f8a-9d3e-2f7c5a1b9e00' }]));
    expect(wrongQuestion.status).toBe(422);
    expect(await bookingsOf(operator.account.id)).toBe(sold);
  });
});
