// File uploads through the local gateway (npm start) get the answers the partner API gives them directly, and every
// refused upload stores nothing: a body longer than its Content-Length, a Content-Length over the limit announced with
// the headers alone, no Content-Length at all, a chunked body, 11 MB sent whole, 10 MiB refused unread from clients
// that close after their answer; and 50 uploads of 10 MiB at once.
// Each case runs against the API directly and through the gateway, with the gateway's default timeouts.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectoryFileStore } from '@backbone/file-store';
import { createHttpServer } from '@backbone/http';
import { createTestPartnerApp, PROBLEM_BASE } from '@backbone/test-apps/partner-api';
import { createTestAccount, request, sampleFile, sendRaw, useTestDatabase } from '@backbone/testkit';
import { createGateway } from '../gateway.js';

const FILES = '/api/v2/ota/partner/files';
const LIMIT = 10 * 1024 * 1024;
const db = useTestDatabase();
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'backbone-gateway-files-'));
let api: http.Server;
let gateway: http.Server;
const urls = { direct: '', gateway: '' };
let accountId: string;
let key: string;
/** Upload requests the API has finished with (answered, or their connection gone). */
let uploadsSettled = 0;

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

beforeAll(async () => {
  // A quota so large that no partner's share of unfinished uploads refuses one: this file is about the gateway.
  api = createHttpServer(createTestPartnerApp(db.pool, { fileStore: createDirectoryFileStore(storeDir), fileQuotaBytes: 1e12 }));
  api.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === FILES) res.once('close', () => uploadsSettled++);
  });
  urls.direct = await listen(api);
  gateway = createGateway({ partnerApi: urls.direct, usageApi: urls.direct, operatorApi: urls.direct }, { problemBase: PROBLEM_BASE });
  urls.gateway = await listen(gateway);
  const account = await createTestAccount(db.pool);
  accountId = account.account.id;
  key = await account.keyWith(['ota']);
});

afterAll(async () => {
  await close(gateway);
  await close(api);
  rmSync(storeDir, { recursive: true, force: true });
});

/** What an upload leaves behind: rows, stored and partial files, the quota taken. */
async function fileState() {
  const { rows } = await db.pool.query<{ files: number; quota: string }>(
    `SELECT (SELECT count(*) FROM files WHERE account_id = $1)::int AS files,
            COALESCE((SELECT bytes FROM file_quota_usage WHERE account_id = $1), 0)::text AS quota`,
    [accountId],
  );
  const entries = (dir: string) => {
    try {
      return readdirSync(path.join(storeDir, dir)).length;
    } catch {
      return 0;
    }
  };
  return { ...rows[0]!, stored: entries(accountId), partials: entries('.partial') };
}

/**
 * Runs a refused upload and checks that nothing stays once the API is done with it. The wait is for the API's own
 * request to end (through the gateway it may still be reading when the client has its answer), then for its clean-up.
 */
async function refusedUpload<T>(send: () => Promise<T>): Promise<T> {
  const before = await fileState();
  const settled = uploadsSettled;
  const answer = await send();
  await expect.poll(() => uploadsSettled, { timeout: 60_000, interval: 50 }).toBeGreaterThan(settled);
  await expect.poll(fileState, { timeout: 30_000, interval: 100 }).toEqual(before);
  return answer;
}

/**
 * Sends `first` on a new connection, then `second` once the API has reserved the upload's row, and reads until the
 * server closes the connection.
 */
async function sendInTwoParts(baseUrl: string, first: Buffer, second: Buffer): Promise<{ status: number; text: string }> {
  const before = (await fileState()).files;
  const socket = net.connect(Number(new URL(baseUrl).port), '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // A reset after the answer is still an answer.
  socket.on('error', () => undefined);
  socket.write(first);
  await expect.poll(async () => (await fileState()).files, { timeout: 30_000, interval: 20 }).toBeGreaterThan(before);
  socket.write(second);
  await closed;
  const raw = Buffer.concat(chunks).toString('utf8');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0), text: raw.slice(raw.indexOf('\r\n\r\n') + 4) };
}

function head(length: number | null, extra = ''): string {
  const framing = length === null ? '' : `Content-Length: ${length}\r\n`;
  return `POST ${FILES} HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/pdf\r\n${framing}${extra}\r\n`;
}

describe.each(['direct', 'gateway'] as const)('uploads %s', { timeout: 180_000 }, (via) => {
  const url = () => urls[via];

  it('a body longer than its Content-Length: 400 (the rest is not HTTP), and nothing is kept', async () => {
    // The upload is under way at the API (its row reserved) when its last bytes come, with more after them: the API
    // has the whole body, but the client's answer is the 400 for the bytes that followed.
    const file = sampleFile('application/pdf', 100_000);
    const res = await refusedUpload(() =>
      sendInTwoParts(
        url(),
        Buffer.concat([Buffer.from(head(file.length)), file.subarray(0, 50_000)]),
        Buffer.concat([file.subarray(50_000), Buffer.alloc(1000, 0x61)]),
      ),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ type: `${PROBLEM_BASE}/invalid-request`, status: 400 });
  });

  it('a Content-Length over 10 MiB with the headers alone: 413 at once, not a 408 once the body has not come', { timeout: 120_000 }, async () => {
    // The ceiling is past the gateway's request timeout: before the API answers, the gateway would have said 408.
    const res = await refusedUpload(() => sendRaw(url(), head(20_971_520), { timeoutMs: 45_000 }));
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/payload-too-large`, MaxBytes: LIMIT });
    expect(res.headers.get('connection')).toBe('close');
    expect(res.closedAfterMs).not.toBeNull();
  });

  it('no Content-Length and no Transfer-Encoding: 411', async () => {
    const res = await refusedUpload(() => sendRaw(url(), head(null), { timeoutMs: 60_000 }));
    expect(res.status).toBe(411);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/length-required`, status: 411 });
  });

  it('a chunked body: 411', async () => {
    const res = await refusedUpload(() => sendRaw(url(), `${head(null, 'Transfer-Encoding: chunked\r\n')}5\r\n%PDF-\r\n0\r\n\r\n`, { timeoutMs: 60_000 }));
    expect(res.status).toBe(411);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/length-required`, status: 411 });
  });

  it('11 MB sent whole: 413, though the API answers before reading the body', async () => {
    // The API refuses from the Content-Length alone and closes gently (packages/http close-unread.ts); the gateway,
    // still sending that body, must pass the answer on rather than lose it in the close.
    for (let i = 0; i < 3; i++) {
      const res = await refusedUpload(() =>
        request(url(), 'POST', FILES, { key, rawBody: new Uint8Array(11_000_000), headers: { 'content-type': 'application/pdf' } }),
      );
      expect(res.status, res.text).toBe(413);
      expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/payload-too-large` });
    }
  });

  it('10 MiB answered before it is read (a 401), from 20 clients that close after their answer: 401 for each', async () => {
    // A client saying Connection: close is answered and closed; passed upstream, the API closed at once, the body
    // still coming, and the gateway lost the answer in the reset: a 502.
    const file = sampleFile('application/pdf', LIMIT);
    const statuses = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<string>((resolve) => {
            const upload = http.request(
              `${url()}${FILES}`,
              {
                method: 'POST',
                agent: false,
                headers: { authorization: 'Bearer bk_not-a-key', 'content-type': 'application/pdf', 'content-length': file.length },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve(String(res.statusCode)));
              },
            );
            // After its answer, the client may find the connection closed under the rest of its body (as direct).
            upload.on('socket', (socket) => socket.on('error', () => undefined));
            upload.on('error', (error: NodeJS.ErrnoException) => resolve(`no answer: ${error.code ?? error.message}`));
            upload.end(file);
          }),
      ),
    );
    expect(statuses).toEqual(Array(20).fill('401'));
  });

  it('50 uploads of 10 MiB at once: every one stored', async () => {
    const other = await createTestAccount(db.pool);
    const otherKey = await other.keyWith(['ota']);
    const file = sampleFile('application/pdf', LIMIT);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        request(url(), 'POST', FILES, { key: otherKey, rawBody: file, headers: { 'content-type': 'application/pdf' } }).catch((error: unknown) => ({
          status: 0,
          text: String((error as Error).cause ?? error),
        })),
      ),
    );
    expect(answers.filter((a) => a.status !== 201).map((a) => `${a.status} ${a.text}`)).toEqual([]);
    rmSync(path.join(storeDir, other.account.id), { recursive: true, force: true });
  });
});
