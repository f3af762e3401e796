// Waiver answers that reference uploaded files ({"QuestionID": …, "FileID": …}) in a booking's create, confirm and
// change: the file must be this partner's, stored, not expired, of a type the question accepts, and no other booking's.
// Another partner's or account's FileID is a 404 like an unknown one (it must not tell what exists); a file another
// booking took is a 409; nothing changes on any refusal. A booking keeps its files: the sweeper never takes them.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryFileStore } from '@backbone/file-store';
import { sweepUnreferencedFiles } from '@backbone/use-cases';
import { createTestQuestion, createTestTimeslot, futureDate, request, sampleFile, type SampleKind } from '@backbone/testkit';
import { mkdtempSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bookingBody, bookingPath, createOperator, createTestPartnerApp, databaseFingerprint, PROBLEM_BASE, type Operator } from './support.js';
import { serveTestApp, useTestDatabase, type TestServer } from '@backbone/testkit';
import { afterAll } from 'vitest';

const db = useTestDatabase({ poolSize: 30 });
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'backbone-file-answers-'));
const fileStore = createDirectoryFileStore(storeDir);
const BOOKING = '/api/v2/ota/partner/booking';
let server: TestServer;
let op: Operator;
let otherPartner: string;
let otherAccount: Operator;
let q: { waiver: number; pdfOnly: number; text: number; idPhoto: number };
let date: string;

beforeAll(async () => {
  server = await serveTestApp(createTestPartnerApp(db.pool, { fileStore }));
  op = await createOperator(db.pool);
  // A second partner of the same account: its own ota key makes its own partner.
  otherPartner = await op.keyWith(['ota']);
  otherAccount = await createOperator(db.pool);
  q = {
    waiver: (await createTestQuestion(db.pool, op.activity, { question: 'Signed waiver', type: 'file', required: true })).id,
    pdfOnly: (await createTestQuestion(db.pool, op.activity, { question: 'Medical form (PDF)', type: 'file', options: ['application/pdf'] })).id,
    text: (await createTestQuestion(db.pool, op.activity, { question: 'Allergies', type: 'text' })).id,
    idPhoto: (await createTestQuestion(db.pool, op.activity, { question: 'ID photo', type: 'file', perParticipant: true })).id,
  };
  date = futureDate(30);
  for (const time of ['09:00', '11:00', '13:00']) await createTestTimeslot(db.pool, op.activity, { date, time, capacity: 50 });
});
afterAll(() => server.close());

async function upload(kind: SampleKind = 'application/pdf', key = op.ota, name = 'waiver.pdf'): Promise<string> {
  const res = await request(server.url, 'POST', '/api/v2/ota/partner/files', {
    key,
    rawBody: sampleFile(kind, 4000),
    headers: { 'content-type': kind, 'content-disposition': `attachment; filename="${name}"` },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.FileID as string;
}

const book = (answers: unknown[], overrides: Record<string, unknown> = {}, key = op.ota) =>
  request(server.url, 'POST', BOOKING, { key, body: bookingBody(op.activity, { date, time: '09:00' }, { Answers: answers, ...overrides }) });

async function fileRow(id: string) {
  const { rows } = await db.pool.query(`SELECT f.status, b.reference FROM files f LEFT JOIN bookings b ON b.id = f.booking_id WHERE f.id = $1`, [id]);
  return rows[0] as { status: string; reference: string | null } | undefined;
}

async function storedAnswers(reference: string) {
  const { rows } = await db.pool.query(`SELECT answers FROM bookings WHERE reference = $1`, [reference]);
  return rows[0]!.answers as Array<Record<string, unknown>>;
}

describe('booking with a file answer', () => {
  it('books with {QuestionID, FileID}: the answer stores the file (name, type, size) and the booking keeps the file', async () => {
    const file = await upload('application/pdf', op.ota, 'Ana Silva waiver.pdf');
    const res = await book([{ QuestionID: q.waiver, FileID: file.toUpperCase() }]);
    expect(res.status, res.text).toBe(201);
    expect(await storedAnswers(res.body.Reference)).toEqual([
      {
        QuestionID: q.waiver,
        Question: 'Signed waiver',
        Type: 'file',
        Participant: null,
        Value: file,
        File: { FileID: file, Name: 'Ana Silva waiver.pdf', ContentType: 'application/pdf', Size: 4000 },
      },
    ]);
    expect(await fileRow(file)).toEqual({ status: 'stored', reference: res.body.Reference });
  });

  it('keeps a URL answer working beside a file answer, and a question limited to PDF takes a PDF', async () => {
    const pdf = await upload();
    const res = await book([
      { QuestionID: q.waiver, Value: 'https://files.example.com/waiver-1.pdf' },
      { QuestionID: q.pdfOnly, FileID: pdf },
    ]);
    expect(res.status, res.text).toBe(201);
    const answers = await storedAnswers(res.body.Reference);
    expect(answers[0]).toMatchObject({ Value: 'https://files.example.com/waiver-1.pdf' });
    expect(answers[0]).not.toHaveProperty('File');
    expect(answers[1]).toMatchObject({ Value: pdf, File: { ContentType: 'application/pdf' } });
  });

  it('takes one file for two participants of the same booking (per-participant question)', async () => {
    const waiver = await upload();
    const photo = await upload('image/jpeg', op.ota, 'family.jpg');
    const res = await book(
      [
        { QuestionID: q.waiver, FileID: waiver },
        { QuestionID: q.idPhoto, Participant: 1, FileID: photo },
        { QuestionID: q.idPhoto, Participant: 2, FileID: photo },
      ],
      { Participants: 2 },
    );
    expect(res.status, res.text).toBe(201);
    expect(await fileRow(photo)).toMatchObject({ reference: res.body.Reference });
  });

  it('never sweeps a referenced file, however old; sweeps its unreferenced neighbour', async () => {
    const kept = await upload();
    const left = await upload();
    const res = await book([{ QuestionID: q.waiver, FileID: kept }]);
    expect(res.status).toBe(201);
    await db.pool.query(`UPDATE files SET expires_at = now() - interval '2 days' WHERE id = ANY($1::uuid[])`, [[kept, left]]);
    await sweepUnreferencedFiles({ pool: db.pool, fileStore }, 1000);
    expect(await fileRow(kept)).toMatchObject({ status: 'stored', reference: res.body.Reference });
    expect(existsSync(path.join(storeDir, op.account.id, kept))).toBe(true);
    expect(await fileRow(left)).toBeUndefined();
    expect(existsSync(path.join(storeDir, op.account.id, left))).toBe(false);
  });

  it('replays an Idempotency-Key retry of a booking with a file, booking nothing new', async () => {
    const file = await upload();
    const headers = { 'idempotency-key': `file-retry-${file}` };
    const body = bookingBody(op.activity, { date, time: '09:00' }, { Answers: [{ QuestionID: q.waiver, FileID: file }] });
    const first = await request(server.url, 'POST', BOOKING, { key: op.ota, body, headers });
    const again = await request(server.url, 'POST', BOOKING, { key: op.ota, body, headers });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('gives a file to exactly one of 12 bookings racing for it; the others get 409 /file-in-use', async () => {
    const file = await upload();
    const answers = await Promise.all(Array.from({ length: 12 }, () => book([{ QuestionID: q.waiver, FileID: file }])));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.type === `${PROBLEM_BASE}/file-in-use`)).toBe(true);
    const winner = answers.find((a) => a.status === 201)!.body.Reference;
    expect(await fileRow(file)).toMatchObject({ reference: winner });
    const { rows } = await db.pool.query(`SELECT count(*)::int AS n FROM bookings WHERE answers @> $1::jsonb`, [JSON.stringify([{ Value: file }])]);
    expect(rows[0].n).toBe(1);
  });
});

describe('booking with a file answer: refused, nothing changed', () => {
  it.each<[string, () => Promise<unknown[]>, number, string]>([
    ['an unknown FileID', async () => [{ QuestionID: q.waiver, FileID: '0b6f1c9e-4c1d-4f8a-9d3e-2f7c5a1b9e00' }], 404, 'not-found'],
    [
      "another partner's FileID (same account)",
      async () => [{ QuestionID: q.waiver, FileID: await upload('application/pdf', otherPartner) }],
      404,
      'not-found',
    ],
    ["another account's FileID", async () => [{ QuestionID: q.waiver, FileID: await upload('application/pdf', otherAccount.ota) }], 404, 'not-found'],
    [
      'a file nobody took within its 24 hours',
      async () => {
        const id = await upload();
        await db.pool.query(`UPDATE files SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
        return [{ QuestionID: q.waiver, FileID: id }];
      },
      404,
      'not-found',
    ],
    [
      'a file another booking uses',
      async () => {
        const id = await upload();
        expect((await book([{ QuestionID: q.waiver, FileID: id }])).status).toBe(201);
        return [{ QuestionID: q.waiver, FileID: id }];
      },
      409,
      'file-in-use',
    ],
    [
      'a PNG for a question that takes PDFs only',
      async () => [
        { QuestionID: q.pdfOnly, FileID: await upload('image/png') },
        { QuestionID: q.waiver, FileID: await upload() },
      ],
      422,
      'validation',
    ],
    [
      'a FileID for a text question',
      async () => [
        { QuestionID: q.text, FileID: await upload() },
        { QuestionID: q.waiver, FileID: await upload() },
      ],
      422,
      'validation',
    ],
    ['both Value and FileID', async () => [{ QuestionID: q.waiver, FileID: await upload(), Value: 'https://x.example/w.pdf' }], 422, 'validation'],
    ['neither Value nor FileID', async () => [{ QuestionID: q.waiver }], 422, 'validation'],
    ['a FileID that is not a UUID', async () => [{ QuestionID: q.waiver, FileID: 'waiver.pdf' }], 422, 'validation'],
    ['a FileID that is a number', async () => [{ QuestionID: q.waiver, FileID: 42 }], 422, 'validation'],
    ['a FileID that is null', async () => [{ QuestionID: q.waiver, FileID: null }], 422, 'validation'],
    ['a FileID as the Value of a file question', async () => [{ QuestionID: q.waiver, Value: await upload() }], 422, 'validation'],
    [
      'a FileID for a participant beyond the party',
      async () => [
        { QuestionID: q.waiver, FileID: await upload() },
        { QuestionID: q.idPhoto, Participant: 3, FileID: await upload('image/jpeg') },
      ],
      422,
      'validation',
    ],
    [
      'a valid file with an invalid other answer (422 before 404)',
      async () => [
        { QuestionID: q.waiver, FileID: '0b6f1c9e-4c1d-4f8a-9d3e-2f7c5a1b9e00' },
        { QuestionID: 999999, Value: 'x' },
      ],
      422,
      'validation',
    ],
  ])('refuses %s', async (_what, answers, status, type) => {
    const sent = await answers();
    const before = await databaseFingerprint(db.pool);
    const res = await book(sent);
    expect(res.status, res.text).toBe(status);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/${type}`);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });

  it('says which answer names an unknown file, and the same for a file of another partner', async () => {
    const foreign = await upload('application/pdf', otherPartner);
    const unknown = '0b6f1c9e-4c1d-4f8a-9d3e-2f7c5a1b9e01';
    const a = await book([{ QuestionID: q.waiver, FileID: foreign }]);
    const b = await book([{ QuestionID: q.waiver, FileID: unknown }]);
    expect(a.body.detail).toBe(`File not found: Answers[0].FileID ${foreign}.`);
    expect(b.body.detail).toBe(`File not found: Answers[0].FileID ${unknown}.`);
  });
});

describe('confirm and change with file answers', () => {
  it('confirms a hold with a file answer, and the booking keeps the file', async () => {
    const hold = await request(server.url, 'POST', BOOKING, {
      key: op.ota,
      body: { ActivityID: op.activity.activityId, Date: date, Time: '11:00', Participants: 1, Hold: { Minutes: 15 } },
    });
    expect(hold.status).toBe(201);
    const file = await upload();
    const foreign = await upload('application/pdf', otherPartner);
    const customer = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' };
    const before = await databaseFingerprint(db.pool);
    const refused = await request(server.url, 'POST', bookingPath(hold.body.Reference, 'confirm'), {
      key: op.ota,
      body: { Customer: customer, Answers: [{ QuestionID: q.waiver, FileID: foreign }] },
    });
    expect(refused.status).toBe(404);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
    const confirmed = await request(server.url, 'POST', bookingPath(hold.body.Reference, 'confirm'), {
      key: op.ota,
      body: { Customer: customer, Answers: [{ QuestionID: q.waiver, FileID: file }] },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(await fileRow(file)).toMatchObject({ reference: hold.body.Reference });
  });

  it('changes the answers to a new file (PATCH): the new one is taken, the replaced one stays with the booking', async () => {
    const first = await upload();
    const second = await upload('image/png', op.ota, 'rescan.png');
    const created = await book([{ QuestionID: q.waiver, FileID: first }]);
    const reference = created.body.Reference as string;
    const changed = await request(server.url, 'PATCH', bookingPath(reference), { key: op.ota, body: { Answers: [{ QuestionID: q.waiver, FileID: second }] } });
    expect(changed.status, changed.text).toBe(200);
    expect((await storedAnswers(reference))[0]).toMatchObject({ Value: second, File: { Name: 'rescan.png', ContentType: 'image/png' } });
    expect(await fileRow(second)).toMatchObject({ reference });
    expect(await fileRow(first)).toMatchObject({ reference });
    // Sending the same file again is no change, and no conflict with itself.
    const same = await request(server.url, 'PATCH', bookingPath(reference), { key: op.ota, body: { Answers: [{ QuestionID: q.waiver, FileID: second }] } });
    expect(same.status).toBe(200);
  });

  it.each<[string, () => Promise<string>, number]>([
    [
      'a file another booking uses',
      async () => {
        const id = await upload();
        expect((await book([{ QuestionID: q.waiver, FileID: id }])).status).toBe(201);
        return id;
      },
      409,
    ],
    ["another partner's file", () => upload('application/pdf', otherPartner), 404],
    ["another account's file", () => upload('application/pdf', otherAccount.ota), 404],
  ])('refuses a change to %s, changing nothing', async (_what, file, status) => {
    const created = await book([{ QuestionID: q.waiver, FileID: await upload() }]);
    const id = await file();
    const before = await databaseFingerprint(db.pool);
    const res = await request(server.url, 'PATCH', bookingPath(created.body.Reference), {
      key: op.ota,
      body: { Time: '13:00', Date: date, Answers: [{ QuestionID: q.waiver, FileID: id }] },
    });
    expect(res.status, res.text).toBe(status);
    expect(await databaseFingerprint(db.pool)).toEqual(before);
  });
});
