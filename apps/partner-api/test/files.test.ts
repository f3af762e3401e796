// POST /api/v2/ota/partner/files through HTTP on real PostgreSQL: the four accepted types, names from
// Content-Disposition, and every way an upload is refused (the wrong type by its bytes, too large before the body is
// read, no Content-Length, empty, cut short, longer than declared) leaving nothing behind: no row, no bytes, no quota.
// 100 uploads at once; the account's quota; the sweep of files nobody referenced.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryFileStore } from '@backbone/file-store';
import { sweepUnreferencedFiles } from '@backbone/use-cases';
import { createApiKey } from '@backbone/db';
import { request, sampleFile, sendRaw, serveTestApp, useTestDatabase, waitFor, type TestServer } from '@backbone/testkit';
import { createOperator, createTestPartnerApp, PROBLEM_BASE, type Operator } from './support.js';

const FILES = '/api/v2/ota/partner/files';
const db = useTestDatabase();
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'backbone-files-test-'));
const fileStore = createDirectoryFileStore(storeDir);
const QUOTA = 600_000;
let server: TestServer;
let small: TestServer;
let op: Operator;

beforeAll(async () => {
  server = await serveTestApp(createTestPartnerApp(db.pool, { fileStore }));
  // The same store and database with a small quota, for the quota's tests (another account).
  small = await serveTestApp(createTestPartnerApp(db.pool, { fileStore, fileQuotaBytes: QUOTA }));
  op = await createOperator(db.pool);
});
afterAll(async () => {
  await server.close();
  await small.close();
});

function upload(bytes: Uint8Array, headers: Record<string, string>, options: { key?: string; base?: string } = {}) {
  return request(options.base ?? server.url, 'POST', FILES, { key: options.key ?? op.ota, rawBody: bytes, headers });
}

/** Every file's bytes under the store's directory (partial uploads apart), by key. */
function storedBytes(): Map<string, Buffer> {
  const found = new Map<string, Buffer>();
  for (const account of readdirSync(storeDir)) {
    if (account === '.partial') continue;
    for (const file of readdirSync(path.join(storeDir, account))) found.set(`${account}/${file}`, readFileSync(path.join(storeDir, account, file)));
  }
  return found;
}

const partials = () => {
  try {
    return readdirSync(path.join(storeDir, '.partial'));
  } catch {
    return [];
  }
};

async function fileState(accountId: string) {
  const { rows } = await db.pool.query<{ files: number; stored: number; quota: string | null }>(
    `SELECT (SELECT count(*) FROM files WHERE account_id = $1)::int AS files,
            (SELECT count(*) FROM files WHERE account_id = $1 AND status = 'stored')::int AS stored,
            (SELECT bytes FROM file_quota_usage WHERE account_id = $1)::text AS quota`,
    [accountId],
  );
  return { ...rows[0]!, bytes: storedBytes().size, partials: partials().length };
}

describe('POST files: accepted', () => {
  it.each([
    ['application/pdf', 'waiver.pdf'],
    ['image/jpeg', 'id-card.jpg'],
    ['image/png', 'signature.png'],
    ['image/webp', 'photo.webp'],
  ])('stores a %s whose bytes are one, durably, and answers what it kept', async (type, name) => {
    const bytes = sampleFile(type as 'application/pdf', 50_000);
    const before = Date.now();
    const res = await upload(bytes, { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.body).toEqual({
      FileID: expect.stringMatching(/^[0-9a-f-]{36}$/),
      Name: name,
      ContentType: type,
      Size: 50_000,
      SHA256: createHash('sha256').update(bytes).digest('hex'),
      ExpiresAt: expect.any(String),
    });
    const expiresIn = Date.parse(res.body.ExpiresAt) - before;
    expect(expiresIn).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(expiresIn).toBeLessThan(24 * 3600_000 + 60_000);
    expect(storedBytes().get(`${op.account.id}/${res.body.FileID}`)?.equals(bytes)).toBe(true);
    const { rows } = await db.pool.query(`SELECT status, size, sha256, partner_id FROM files WHERE id = $1`, [res.body.FileID]);
    expect(rows[0]).toMatchObject({ status: 'stored', size: 50_000, sha256: res.body.SHA256, partner_id: expect.any(String) });
  });

  it('takes the name from filename* (RFC 6266) over filename, and keeps only its last path segment, without control characters', async () => {
    const pdf = sampleFile('application/pdf', 2000);
    const utf8 = await upload(pdf, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="fallback.pdf"; filename*=UTF-8''Verzicht%20J%C3%BCrgen.pdf`,
    });
    expect(utf8.body.Name).toBe('Verzicht Jürgen.pdf');
    const climbing = await upload(pdf, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="../../etc/passwd.pdf"' });
    expect(climbing.body.Name).toBe('passwd.pdf');
    const windows = await upload(pdf, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="C:\\\\Users\\\\ana\\\\w.pdf"' });
    expect(windows.body.Name).toBe('w.pdf');
    const spoofed = await upload(pdf, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe`,
    });
    expect(spoofed.body.Name).toBe('invoicefdp.exe');
    const none = await upload(pdf, { 'content-type': 'application/pdf' });
    expect(none.body.Name).toBe('upload.pdf');
    const dots = await upload(sampleFile('image/png', 2000), { 'content-type': 'image/png', 'content-disposition': 'attachment; filename=".."' });
    expect(dots.body.Name).toBe('upload.png');
    const long = await upload(pdf, {
      'content-type': 'Application/PDF; charset=binary',
      'content-disposition': `attachment; filename="${'a'.repeat(300)}.pdf"`,
    });
    expect(long.status).toBe(201);
    expect(long.body.Name).toHaveLength(200);
  });
});

describe('POST files: refused, nothing kept', () => {
  let before: Awaited<ReturnType<typeof fileState>>;
  beforeAll(async () => {
    before = await fileState(op.account.id);
  });
  const nothingKept = async () => expect(await fileState(op.account.id)).toEqual(before);

  it.each([
    ['a renamed .exe as application/pdf', sampleFile('exe', 30_000), 'application/pdf', 'a application/x-msdownload file'],
    ['a PNG as image/jpeg', sampleFile('image/png', 30_000), 'image/jpeg', 'a image/png file'],
    ['a PDF as image/png', sampleFile('application/pdf', 30_000), 'image/png', 'a application/pdf file'],
    ['text as application/pdf', sampleFile('text', 30_000), 'application/pdf', 'not a PDF, JPEG, PNG or WebP'],
    ['a tiny text as image/webp', Buffer.from('RIFF'), 'image/webp', 'not a PDF, JPEG, PNG or WebP'],
  ])('415 for %s: the bytes are not the declared type', async (_what, bytes, type, detail) => {
    const res = await upload(bytes, { 'content-type': type });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unsupported-media-type`, status: 415 });
    expect(res.body.detail).toContain(detail);
    await nothingKept();
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['application/octet-stream', 'application/octet-stream'],
    ['multipart/form-data', 'multipart/form-data; boundary=x'],
    ['application/json', 'application/json'],
    ['image/gif', 'image/gif'],
    ['image/svg+xml', 'image/svg+xml'],
  ])('415 for Content-Type %s', async (_what, type) => {
    const res = await upload(sampleFile('application/pdf', 1000), { 'content-type': type });
    expect(res.status).toBe(415);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/unsupported-media-type`);
    await nothingKept();
  });

  it('415 without a Content-Type', async () => {
    const bytes = sampleFile('application/pdf', 1000);
    const res = await sendRaw(
      server.url,
      Buffer.concat([
        Buffer.from(`POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`),
        bytes,
      ]),
    );
    expect(res.status).toBe(415);
    await nothingKept();
  });

  it('400 for an empty body (Content-Length: 0)', async () => {
    const res = await upload(new Uint8Array(0), { 'content-type': 'application/pdf' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/invalid-request`, detail: expect.stringContaining('empty') });
    await nothingKept();
  });

  it('413 for a Content-Length over 10 MiB, answered before the body is read, closing the connection', async () => {
    // Only the headers and the first bytes are sent: the answer must come without the other 20 MB.
    const res = await sendRaw(
      server.url,
      Buffer.concat([
        Buffer.from(
          `POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/pdf\r\nContent-Length: 20971520\r\n\r\n`,
        ),
        sampleFile('application/pdf', 1000),
      ]),
      { timeoutMs: 60_000 },
    );
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/payload-too-large`, MaxBytes: 10 * 1024 * 1024 });
    expect(res.headers.get('connection')).toBe('close');
    expect(res.closedAfterMs).not.toBeNull();
    await nothingKept();
  });

  it('413 for one byte over 10 MiB; exactly 10 MiB is taken', async () => {
    const limit = 10 * 1024 * 1024;
    const over = await upload(sampleFile('application/pdf', limit + 1), { 'content-type': 'application/pdf' });
    expect(over.status).toBe(413);
    await nothingKept();
    const at = await upload(sampleFile('application/pdf', limit), { 'content-type': 'application/pdf' });
    expect(at.status).toBe(201);
    expect(at.body.Size).toBe(limit);
    await db.pool.query(`UPDATE files SET expires_at = now() - interval '1 second' WHERE id = $1`, [at.body.FileID]);
    await sweepUnreferencedFiles({ pool: db.pool, fileStore }, 100);
    await nothingKept();
  });

  it('411 without a Content-Length (a chunked body)', async () => {
    const res = await sendRaw(
      server.url,
      `POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/pdf\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n%PDF-\r\n0\r\n\r\n`,
      { timeoutMs: 60_000 },
    );
    expect(res.status).toBe(411);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/length-required`, status: 411 });
    await nothingKept();
  });

  it('400 for a body cut short of its Content-Length (the client stops sending), leaving no partial file', async () => {
    const res = await sendRaw(
      server.url,
      Buffer.concat([
        Buffer.from(
          `POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/pdf\r\nContent-Length: 100000\r\n\r\n`,
        ),
        sampleFile('application/pdf', 60_000),
      ]),
      { end: true, timeoutMs: 60_000 },
    );
    expect(res.status).toBe(400);
    expect(res.body.type).toBe(`${PROBLEM_BASE}/invalid-request`);
    await expect.poll(() => fileState(op.account.id)).toEqual(before);
  });

  it('never answers 201 to a body longer than its Content-Length (the rest is not HTTP), and keeps nothing', async () => {
    const bytes = sampleFile('application/pdf', 5000);
    const res = await sendRaw(
      server.url,
      Buffer.concat([
        Buffer.from(`POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/pdf\r\nContent-Length: 4000\r\n\r\n`),
        bytes,
      ]),
      { timeoutMs: 60_000 },
    );
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('201 Created');
    await expect.poll(() => fileState(op.account.id)).toEqual(before);
  });

  it.each([
    ['form-data', 'form-data; name="file"; filename="w.pdf"'],
    ['a disposition type of its own', 'x-upload; filename="w.pdf"'],
  ])('400 for a Content-Disposition of %s', async (_what, header) => {
    const res = await upload(sampleFile('application/pdf', 1000), { 'content-type': 'application/pdf', 'content-disposition': header });
    expect(res.status).toBe(400);
    await nothingKept();
  });

  it('401 without a key, 403 for a key without the ota scope', async () => {
    const bytes = sampleFile('application/pdf', 1000);
    expect((await request(server.url, 'POST', FILES, { rawBody: bytes, headers: { 'content-type': 'application/pdf' } })).status).toBe(401);
    const usage = await op.keyWith(['usage:write']);
    expect((await upload(bytes, { 'content-type': 'application/pdf' }, { key: usage })).status).toBe(403);
    await nothingKept();
  });
});

describe('POST files: 100 at once', () => {
  it('stores every one of 100 concurrent uploads, each under its own id, with the quota equal to their bytes', async () => {
    const other = await createOperator(db.pool);
    const files = Array.from({ length: 100 }, (_, i) => sampleFile(i % 2 ? 'image/jpeg' : 'application/pdf', 20_000 + i));
    const answers = await Promise.all(files.map((bytes, i) => upload(bytes, { 'content-type': i % 2 ? 'image/jpeg' : 'application/pdf' }, { key: other.ota })));
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(201));
    expect(new Set(answers.map((a) => a.body.FileID)).size).toBe(100);
    const stored = storedBytes();
    answers.forEach((a, i) => expect(stored.get(`${other.account.id}/${a.body.FileID}`)?.equals(files[i]!)).toBe(true));
    const state = await fileState(other.account.id);
    expect(state).toMatchObject({ files: 100, stored: 100, quota: String(files.reduce((sum, f) => sum + f.length, 0)), partials: 0 });
  });
});

describe('quota and sweep', () => {
  it("refuses an upload beyond the account's quota with 413 /file-quota-exceeded, and takes it again once files are swept", async () => {
    const tenant = await createOperator(db.pool);
    const send = () => upload(sampleFile('application/pdf', 250_000), { 'content-type': 'application/pdf' }, { key: tenant.ota, base: small.url });
    const first = await send();
    const second = await send();
    expect([first.status, second.status]).toEqual([201, 201]);
    const third = await send();
    expect(third.status).toBe(413);
    expect(third.body).toMatchObject({ type: `${PROBLEM_BASE}/file-quota-exceeded`, QuotaBytes: QUOTA });
    expect((await fileState(tenant.account.id)).quota).toBe('500000');
    // Another account has its own quota.
    expect((await upload(sampleFile('application/pdf', 250_000), { 'content-type': 'application/pdf' }, { base: small.url })).status).toBe(201);

    // A day later nobody referenced the first: the sweeper deletes its row and bytes and gives its bytes back.
    await db.pool.query(`UPDATE files SET expires_at = now() - interval '1 second' WHERE id = $1`, [first.body.FileID]);
    const swept = await sweepUnreferencedFiles({ pool: db.pool, fileStore }, 100);
    expect(swept.deleted).toBe(1);
    expect(storedBytes().has(`${tenant.account.id}/${first.body.FileID}`)).toBe(false);
    expect(storedBytes().has(`${tenant.account.id}/${second.body.FileID}`)).toBe(true);
    expect((await db.pool.query(`SELECT 1 FROM files WHERE id = $1`, [first.body.FileID])).rowCount).toBe(0);
    expect((await fileState(tenant.account.id)).quota).toBe('250000');
    expect((await send()).status).toBe(201);
  });

  it("a partner's unfinished uploads take at most a tenth of the quota: the next is a 429 at once, and another partner still uploads", async () => {
    const quota = 200_000_000;
    const roomy = await serveTestApp(createTestPartnerApp(db.pool, { fileStore, fileQuotaBytes: quota }));
    const tenant = await createOperator(db.pool);
    const holder = await createApiKey(db.pool, tenant.account.id, { name: 'Slow uploads Ltd', scopes: ['ota'] });
    const other = await createApiKey(db.pool, tenant.account.id, { name: 'Other partner', scopes: ['ota'] });
    const declared = 5_000_000;
    const sockets: net.Socket[] = [];
    try {
      // 45 uploads of 5 MB that send their headers and first KiB, then nothing: 40 would fill the whole quota.
      const answers = await Promise.all(
        Array.from({ length: 45 }, async () => {
          const socket = net.connect(Number(new URL(roomy.url).port), '127.0.0.1');
          sockets.push(socket);
          socket.on('error', () => undefined);
          let received = '';
          socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
          await new Promise<void>((resolve) => socket.once('connect', resolve));
          socket.write(
            `POST ${FILES} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${holder.secret}\r\nContent-Type: image/png\r\nContent-Length: ${declared}\r\n\r\n`,
          );
          socket.write(sampleFile('image/png', 1024));
          return () => received;
        }),
      );
      const limit = quota / 10;
      const held = Math.floor(limit / declared);
      await waitFor(
        'every upload past the limit answered, the others pending',
        async () => {
          const refused = answers.filter((received) => received().startsWith('HTTP/1.1 429')).length;
          const { rows } = await db.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM files WHERE partner_id = $1 AND status = 'pending'`, [
            holder.partnerId,
          ]);
          return refused === 45 - held && rows[0]!.n === held;
        },
        60_000,
      );
      const refusal = answers.map((received) => received()).find((text) => text.startsWith('HTTP/1.1 429'))!;
      expect(refusal).toMatch(/\r\nretry-after: 5\r\n/i);
      expect(refusal).toContain(`${PROBLEM_BASE}/uploads-in-progress`);

      const theirs = await upload(sampleFile('image/png', 4_000_000), { 'content-type': 'image/png' }, { key: other.secret, base: roomy.url });
      expect(theirs.status).toBe(201);
    } finally {
      for (const socket of sockets) socket.destroy();
      await roomy.close();
    }
    // Given up, the unfinished uploads are undone and the partner uploads again.
    await waitFor(
      'the abandoned uploads undone',
      async () => (await db.pool.query(`SELECT 1 FROM files WHERE partner_id = $1`, [holder.partnerId])).rowCount === 0,
      60_000,
    );
    expect((await upload(sampleFile('image/png', 1000), { 'content-type': 'image/png' }, { key: holder.secret })).status).toBe(201);
  });

  it('sweeps a pending upload a crash left behind an hour ago, and keeps one still young', async () => {
    const tenant = await createOperator(db.pool);
    const { rows: partner } = await db.pool.query<{ partner_id: string }>(`SELECT partner_id FROM api_keys WHERE account_id = $1 AND partner_id IS NOT NULL`, [
      tenant.account.id,
    ]);
    const insert = (id: string, age: string) =>
      db.pool.query(
        `WITH q AS (INSERT INTO file_quota_usage (account_id, bytes) VALUES ($2, 100) ON CONFLICT (account_id) DO UPDATE SET bytes = file_quota_usage.bytes + 100)
         INSERT INTO files (id, account_id, partner_id, name, content_type, size, created_at, expires_at)
         VALUES ($1, $2, $3, 'cut.pdf', 'application/pdf', 100, now() - $4::interval, now() - $4::interval + interval '24 hours')`,
        [id, tenant.account.id, partner[0]!.partner_id, age],
      );
    await insert('00000000-0000-4000-8000-0000000000a1', '2 hours');
    await insert('00000000-0000-4000-8000-0000000000a2', '1 minute');
    await sweepUnreferencedFiles({ pool: db.pool, fileStore }, 100);
    const { rows } = await db.pool.query(`SELECT id FROM files WHERE account_id = $1`, [tenant.account.id]);
    expect(rows.map((r) => r.id)).toEqual(['00000000-0000-4000-8000-0000000000a2']);
    expect((await fileState(tenant.account.id)).quota).toBe('100');
  });
});
