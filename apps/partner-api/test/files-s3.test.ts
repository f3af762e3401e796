// The S3 file store (FILE_STORE=s3://bucket/prefix) under the partner API's upload, with the real AWS SDK client
// talking HTTP to a small fake S3 in this file (no S3 server runs here). What this shows: the adapter's requests (a
// path-style PUT of the streamed body with its Content-Length, GET, DELETE, 404 as "no file"), and that a refused or
// cut-off upload creates no object. What it does not: AWS's signatures (the fake does not check them), multipart
// uploads, or a real bucket's durability, which the adapter takes on S3's word.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileStore, type FileStore } from '@backbone/file-store';
import { request, sampleFile, sendRaw, serveTestApp, useTestDatabase, type TestServer } from '@backbone/testkit';
import { createOperator, createTestPartnerApp, type Operator } from './support.js';

const db = useTestDatabase();

interface FakeS3 {
  url: string;
  objects: Map<string, { body: Buffer; contentType: string | undefined }>;
  requests: string[];
  close(): Promise<void>;
}

/** Path-style S3: PUT /bucket/key stores the body once all of Content-Length arrived; GET and DELETE as S3 answers them. */
async function startFakeS3(): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; contentType: string | undefined }>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const key = decodeURIComponent(new URL(req.url ?? '/', 'http://s3').pathname.slice(1));
    requests.push(`${req.method} ${key}`);
    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (body.length !== Number(req.headers['content-length'])) {
          res.writeHead(400).end();
          return;
        }
        objects.set(key, { body, contentType: req.headers['content-type'] });
        res.writeHead(200, { ETag: `"${createHash('md5').update(body).digest('hex')}"` }).end();
      });
      return;
    }
    if (req.method === 'GET') {
      const object = objects.get(key);
      if (!object) {
        res
          .writeHead(404, { 'Content-Type': 'application/xml' })
          .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
        return;
      }
      res.writeHead(200, { 'Content-Type': object.contentType ?? 'application/octet-stream', 'Content-Length': object.body.length }).end(object.body);
      return;
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      res.writeHead(204).end();
      return;
    }
    res.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the S3 file store behind uploads', () => {
  let s3: FakeS3;
  let store: FileStore;
  let api: TestServer;
  let op: Operator;

  beforeAll(async () => {
    s3 = await startFakeS3();
    store = openFileStore({
      FILE_STORE: 's3://waivers/backbone/files/',
      FILE_STORE_S3_ENDPOINT: s3.url,
      FILE_STORE_S3_REGION: 'eu-central-1',
      FILE_STORE_S3_FORCE_PATH_STYLE: true,
      FILE_STORE_S3_ACCESS_KEY_ID: 'test-key',
      FILE_STORE_S3_SECRET_ACCESS_KEY: 'test-secret',
    });
    api = await serveTestApp(createTestPartnerApp(db.pool, { fileStore: store }));
    op = await createOperator(db.pool);
  });
  afterAll(async () => {
    await api.close();
    await s3.close();
  });

  it('puts the upload under <bucket>/<prefix>/<account>/<file>, reads it back and deletes it', async () => {
    const bytes = sampleFile('image/jpeg', 300_000);
    const res = await request(api.url, 'POST', '/api/v2/ota/partner/files', { key: op.ota, rawBody: bytes, headers: { 'content-type': 'image/jpeg' } });
    expect(res.status).toBe(201);
    const key = `${op.account.id}/${res.body.FileID}`;
    const object = s3.objects.get(`waivers/backbone/files/${key}`);
    expect(object?.body.equals(bytes)).toBe(true);
    expect(object?.contentType).toBe('image/jpeg');
    expect(store.description).toBe('s3 waivers/backbone/files/');

    const read = await store.get(key);
    const chunks: Buffer[] = [];
    for await (const chunk of read!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
    await store.delete(key);
    expect(s3.objects.has(`waivers/backbone/files/${key}`)).toBe(false);
    expect(await store.get(key)).toBeNull();
  });

  it('creates no object for an upload refused by its bytes, or cut short', async () => {
    const before = s3.objects.size;
    const exe = await request(api.url, 'POST', '/api/v2/ota/partner/files', {
      key: op.ota,
      rawBody: sampleFile('exe', 100_000),
      headers: { 'content-type': 'image/png' },
    });
    expect(exe.status).toBe(415);
    const cut = await sendRaw(
      api.url,
      Buffer.concat([
        Buffer.from(
          `POST /api/v2/ota/partner/files HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${op.ota}\r\nContent-Type: application/pdf\r\nContent-Length: 200000\r\n\r\n`,
        ),
        sampleFile('application/pdf', 80_000),
      ]),
      { end: true },
    );
    expect(cut.status).toBe(400);
    await expect.poll(async () => (await db.pool.query(`SELECT count(*)::int AS n FROM files WHERE status <> 'stored'`)).rows[0].n).toBe(0);
    expect(s3.objects.size).toBe(before);
  });

  it('answers 503 when the bucket refuses the write, and keeps nothing', async () => {
    await s3.close();
    const res = await request(api.url, 'POST', '/api/v2/ota/partner/files', {
      key: op.ota,
      rawBody: sampleFile('application/pdf', 10_000),
      headers: { 'content-type': 'application/pdf' },
    });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM files WHERE status <> 'stored'`)).rows[0].n).toBe(0);
  });
});
