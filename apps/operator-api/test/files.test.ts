// The operator opens the files partners uploaded: GET /api/v2/operator/files/{FileID} streams the bytes as an attachment
// the browser will not render (nosniff, a sandboxing CSP), to the account's signed-in users (owner and staff) and its
// admin keys only; the booking answer names each file answer's file (name, type, size). And a partner's change of a
// booking is what the operator's booking answer shows next.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryFileStore } from '@backbone/file-store';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestQuestion, request, sampleFile, serveTestApp, type TestServer } from '@backbone/testkit';
import { createOperator, createSlot, dayFromNow, PROBLEM_BASE, signedIn, useOperatorApi, type Operator, type SessionClient } from './support.js';

const fileStore = createDirectoryFileStore(mkdtempSync(path.join(os.tmpdir(), 'backbone-operator-files-')));
const { db, server } = useOperatorApi({ fileStore });
let partnerApi: TestServer;
let operator: Operator;
let other: Operator;
let owner: SessionClient;
let staff: SessionClient;
let outsider: SessionClient;
let ota: string;
let waiver: number;
const date = dayFromNow(12);

beforeAll(async () => {
  partnerApi = await serveTestApp(createTestPartnerApp(db.pool, { fileStore }));
  operator = await createOperator(db.pool);
  other = await createOperator(db.pool);
  owner = await signedIn(server.url, operator.owner.email);
  staff = await signedIn(server.url, operator.staff.email);
  outsider = await signedIn(server.url, other.owner.email);
  ota = await operator.keyWith(['ota']);
  waiver = (await createTestQuestion(db.pool, operator.activity, { question: 'Signed waiver', type: 'file', required: true })).id;
  for (const time of ['09:00', '11:00']) await createSlot(db.pool, operator, date, time, 10);
});
afterAll(() => partnerApi.close());

async function upload(bytes: Buffer, type: string, name: string, key = ota): Promise<string> {
  const res = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/files', {
    key,
    rawBody: bytes,
    headers: { 'content-type': type, 'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.FileID as string;
}

const fileUrl = (id: string) => `/api/v2/operator/files/${id}`;

describe('GET operator files', () => {
  let pdf: Buffer;
  let fileId: string;
  let reference: string;

  beforeAll(async () => {
    pdf = sampleFile('application/pdf', 123_457);
    fileId = await upload(pdf, 'application/pdf', 'Verzicht "Ana" <Silva>.pdf');
    const booked = await request(partnerApi.url, 'POST', '/api/v2/ota/partner/booking', {
      key: ota,
      body: {
        ActivityID: operator.activity.activityId,
        Date: date,
        Time: '09:00',
        Participants: 2,
        Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
        Answers: [{ QuestionID: waiver, FileID: fileId }],
      },
    });
    expect(booked.status, booked.text).toBe(201);
    reference = booked.body.Reference;
  });

  it('streams the file to the owner as an attachment the browser will not render, with its type, size and name', async () => {
    const res = await fetch(server.url + fileUrl(fileId), { headers: { cookie: owner.cookie! } });
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(pdf)).toBe(true);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe('123457');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Verzicht \\"Ana\\" <Silva>.pdf"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toMatch(/^sandbox\b/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it('streams it to staff and to an admin key of the account too; a non-ASCII name goes in filename*', async () => {
    const photo = sampleFile('image/jpeg', 5000);
    const photoId = await upload(photo, 'image/jpeg', 'Paß João.jpg');
    const byStaff = await fetch(server.url + fileUrl(photoId), { headers: { cookie: staff.cookie! } });
    expect(byStaff.status).toBe(200);
    expect(byStaff.headers.get('content-disposition')).toBe(`attachment; filename="Pa? Jo?o.jpg"; filename*=UTF-8''Pa%C3%9F%20Jo%C3%A3o.jpg`);
    expect(Buffer.from(await byStaff.arrayBuffer()).equals(photo)).toBe(true);
    const byKey = await fetch(server.url + fileUrl(photoId.toUpperCase()), { headers: { authorization: `Bearer ${operator.key}` } });
    expect(byKey.status).toBe(200);
    expect(Buffer.from(await byKey.arrayBuffer()).equals(photo)).toBe(true);
  });

  it("names the file in the booking's answer (name, type, size) for the console's panel", async () => {
    const res = await owner.send('GET', `/api/v2/operator/bookings/${reference}`);
    expect(res.status).toBe(200);
    expect(res.body.Answers).toEqual([
      {
        QuestionID: waiver,
        Question: 'Signed waiver',
        Type: 'file',
        Participant: null,
        Value: fileId,
        File: { FileID: fileId, Name: 'Verzicht "Ana" <Silva>.pdf', ContentType: 'application/pdf', Size: 123_457 },
      },
    ]);
  });

  it("shows a partner's change of the booking in the operator's booking answer (move and party size)", async () => {
    const changed = await request(partnerApi.url, 'PATCH', `/api/v2/ota/partner/booking/${reference}`, {
      key: ota,
      body: { Date: date, Time: '11:00', Participants: 3 },
    });
    expect(changed.status, changed.text).toBe(200);
    const seen = await staff.send('GET', `/api/v2/operator/bookings/${reference}`);
    expect(seen.body).toMatchObject({ Reference: reference, Date: date, Time: '11:00', Participants: 3, Status: 'confirmed' });
    expect(seen.body.Answers[0].File.FileID).toBe(fileId);
  });

  it.each<[string, () => Promise<{ status: number; type?: string }>, number]>([
    ['no session and no key', async () => statusOf(await fetch(server.url + fileUrl(fileId))), 401],
    ["another account's owner", async () => statusOf(await fetch(server.url + fileUrl(fileId), { headers: { cookie: outsider.cookie! } })), 404],
    [
      "another account's admin key",
      async () => statusOf(await fetch(server.url + fileUrl(fileId), { headers: { authorization: `Bearer ${other.key}` } })),
      404,
    ],
    [
      'an ota key of the account (not admin)',
      async () => statusOf(await fetch(server.url + fileUrl(fileId), { headers: { authorization: `Bearer ${ota}` } })),
      403,
    ],
    ['a FileID that is not a UUID', async () => statusOf(await fetch(server.url + fileUrl('waiver.pdf'), { headers: { cookie: owner.cookie! } })), 400],
    ['a path that climbs', async () => statusOf(await fetch(server.url + fileUrl('..%2F..%2Fetc%2Fpasswd'), { headers: { cookie: owner.cookie! } })), 400],
    [
      'an unknown FileID',
      async () => statusOf(await fetch(server.url + fileUrl('0b6f1c9e-4c1d-4f8a-9d3e-2f7c5a1b9e00'), { headers: { cookie: owner.cookie! } })),
      404,
    ],
    [
      'a file nobody referenced within its 24 hours',
      async () => {
        const id = await upload(sampleFile('image/png', 3000), 'image/png', 'late.png');
        await db.pool.query(`UPDATE files SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
        return statusOf(await fetch(server.url + fileUrl(id), { headers: { cookie: owner.cookie! } }));
      },
      404,
    ],
  ])('refuses %s', async (_what, attempt, status) => {
    const answer = await attempt();
    expect(answer.status).toBe(status);
    if (status !== 401) expect(answer.type).toMatch(new RegExp(`^${PROBLEM_BASE}/`));
  });
});

async function statusOf(res: Response): Promise<{ status: number; type?: string }> {
  const text = await res.text();
  let type: string | undefined;
  try {
    type = (JSON.parse(text) as { type?: string }).type;
  } catch {
    type = undefined;
  }
  return { status: res.status, type };
}
