// What an SRE reads: one pino JSON line per request carrying its request id, the id echoed in X-Request-Id, a 500
// logged with its stack under the same id; and HEAD answered like GET without a body.
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createKeyVerifier } from '@backbone/http';
import { createTestTimeslot, futureDate, request, useTestDatabase, useTestServer } from '@backbone/testkit';
import { testFileDeps, WITHOUT_WEBHOOKS } from '@backbone/test-apps/partner-api';
import { createPartnerApp } from '../src/app.js';
import { createOperator, PROBLEM_BASE } from './support.js';

const lines: Array<Record<string, unknown>> = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

const db = useTestDatabase();
const server = useTestServer(() =>
  createPartnerApp({
    pool: db.pool,
    logger: pino({ level: 'info', name: 'partner-api', base: { service: 'partner-api' } }, capture),
    problemBase: PROBLEM_BASE,
    bodyLimit: '64kb',
    keyVerifier: createKeyVerifier(db.pool, 0),
    ...WITHOUT_WEBHOOKS,
    ...testFileDeps(),
  }),
);

afterEach(() => {
  lines.length = 0;
});

/** The log lines of one request id; the line is written when the response finishes, just after the client has it. */
async function linesOf(reqId: string, count = 1): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 100; i++) {
    const found = lines.filter((line) => line.reqId === reqId);
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no log line for request ${reqId}`);
}

describe('request log', () => {
  it('writes one JSON line per request with the caller-given request id, method, path, status and duration', async () => {
    const op = await createOperator(db.pool);
    const day = futureDate(4);
    await createTestTimeslot(db.pool, op.activity, { date: day, time: '10:00' });
    const path = `/api/v2/ota/partner/availability/${op.activity.activityId}/timeslots?Date=${day}`;
    const res = await request(server.url, 'GET', path, { key: op.ota, headers: { 'x-request-id': 'trace-log-1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-log-1');
    const [line] = await linesOf('trace-log-1');
    expect(line).toMatchObject({ level: 30, service: 'partner-api', msg: 'request completed', req: { method: 'GET', url: path }, res: { statusCode: 200 } });
    expect(line!.responseTime).toEqual(expect.any(Number));
    expect(line!.time).toEqual(expect.any(Number));
  });

  it('gives a request without a usable id a fresh UUID, in the header and in the log', async () => {
    for (const given of [undefined, 'has spaces', 'x'.repeat(129)]) {
      const res = await request(server.url, 'GET', '/api/v2/ota/partner/products', given === undefined ? {} : { headers: { 'x-request-id': given } });
      expect(res.status).toBe(401);
      const id = res.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(res.body.requestId).toBe(id);
      expect(await linesOf(id)).toEqual([expect.objectContaining({ res: { statusCode: 401 }, msg: 'request completed' })]);
    }
  });

  it('logs a 500 twice under its request id: the error with its stack, then the request at error level', async () => {
    const op = await createOperator(db.pool);
    await db.pool.query('ALTER TABLE activities RENAME TO activities_away');
    try {
      const res = await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota, headers: { 'x-request-id': 'trace-log-500' } });
      expect(res.status).toBe(500);
    } finally {
      await db.pool.query('ALTER TABLE activities_away RENAME TO activities');
    }
    const logged = await linesOf('trace-log-500', 2);
    expect(logged).toEqual([
      expect.objectContaining({ level: 50, msg: 'unhandled error', err: expect.objectContaining({ message: expect.stringContaining('activities') }) }),
      expect.objectContaining({ level: 50, msg: 'request failed', res: { statusCode: 500 } }),
    ]);
    expect(String((logged[0]!.err as { stack: string }).stack)).toMatch(/\n\s+at /);
  });
});

describe('HEAD', () => {
  it('answers like GET, with the same headers and no body', async () => {
    const op = await createOperator(db.pool);
    const get = await request(server.url, 'GET', '/api/v2/ota/partner/products', { key: op.ota });
    const head = await request(server.url, 'HEAD', '/api/v2/ota/partner/products', { key: op.ota });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    for (const name of ['content-type', 'content-length', 'etag', 'cache-control']) expect(head.headers.get(name), name).toBe(get.headers.get(name));
    expect(Number(get.headers.get('content-length'))).toBe(Buffer.byteLength(get.text));
  });
});
