// Uploads against the partner API as the process production runs (server.ts, FILE_STORE a directory): a file kept
// before a restart is there after it, byte for byte, and can be booked with; an upload cut off by SIGKILL halfway
// leaves no file a booking could reference (its row pending, nothing under its name), and the sweeper clears the rest.
import { mkdtempSync, readdirSync, statSync, utimesSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDirectoryFileStore } from '@backbone/file-store';
import {
  createTestQuestion,
  createTestTimeslot,
  futureDate,
  request,
  sampleFile,
  useServiceProcesses,
  useTestDatabase,
  useTestRedis,
  waitFor,
} from '@backbone/testkit';
import { sweepUnreferencedFiles } from '@backbone/use-cases';
import { bookingBody, createOperator } from './support.js';

const db = useTestDatabase();
const redis = useTestRedis();
const services = useServiceProcesses();
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'backbone-files-process-'));

async function startApi() {
  const api = services.spawn('apps/partner-api/src/server.ts', {
    DATABASE_URL: db.databaseUrl,
    DATABASE_SCHEMA: db.schema,
    DATABASE_POOL_SIZE: '4',
    REDIS_URL: redis.redisUrl,
    QUEUE_PREFIX: redis.prefix,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    FILE_STORE: storeDir,
    RATE_LIMIT_ENABLED: 'false',
  });
  const listening = await api.waitForLine('"partner API listening"', (line) => line.msg === 'partner API listening');
  return { api, url: listening.line.url as string };
}

// Each test starts the API twice under tsx: 3 s a start on a quiet machine, over 30 s on a loaded one.
describe('files and the partner API process', { timeout: 300_000 }, () => {
  it('keeps an uploaded file across a restart: the new process books with it, and its bytes are unchanged', async () => {
    const op = await createOperator(db.pool);
    const question = await createTestQuestion(db.pool, op.activity, { question: 'Signed waiver', type: 'file', required: true });
    const date = futureDate(9);
    await createTestTimeslot(db.pool, op.activity, { date, time: '10:00', capacity: 4 });
    const first = await startApi();
    const pdf = sampleFile('application/pdf', 2 * 1024 * 1024);
    const uploaded = await request(first.url, 'POST', '/api/v2/ota/partner/files', {
      key: op.ota,
      rawBody: pdf,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(uploaded.status, uploaded.text).toBe(201);
    first.api.child.kill('SIGTERM');
    expect(await first.api.exited).toEqual({ code: 0, signal: null });

    const second = await startApi();
    try {
      const booked = await request(second.url, 'POST', '/api/v2/ota/partner/booking', {
        key: op.ota,
        body: bookingBody(op.activity, { date, time: '10:00' }, { Answers: [{ QuestionID: question.id, FileID: uploaded.body.FileID }] }),
      });
      expect(booked.status, booked.text).toBe(201);
      const kept = await createDirectoryFileStore(storeDir).get(`${op.account.id}/${uploaded.body.FileID}`);
      const chunks: Buffer[] = [];
      for await (const chunk of kept!) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(pdf)).toBe(true);
    } finally {
      second.api.child.kill('SIGTERM');
      await second.api.exited;
    }
  });

  it('leaves no referenceable file when SIGKILL cuts an upload off halfway; the sweeper removes what is left', async () => {
    const op = await createOperator(db.pool);
    const { api, url } = await startApi();
    const total = 6 * 1024 * 1024;
    const body = sampleFile('image/png', total);
    const target = new URL(url);
    const upload = http.request({
      host: target.hostname,
      port: target.port,
      method: 'POST',
      path: '/api/v2/ota/partner/files',
      headers: { authorization: `Bearer ${op.ota}`, 'content-type': 'image/png', 'content-length': String(total) },
    });
    upload.on('error', () => undefined);
    upload.write(body.subarray(0, 3 * 1024 * 1024));
    const partialDir = path.join(storeDir, '.partial');
    const partialSize = () => {
      try {
        return readdirSync(partialDir).reduce((sum, name) => sum + statSync(path.join(partialDir, name)).size, 0);
      } catch {
        return 0;
      }
    };
    // The server has written part of it to disk: now it dies.
    await waitFor('part of the upload on disk', () => Promise.resolve(partialSize() > 1024 * 1024));
    api.child.kill('SIGKILL');
    expect((await api.exited).signal).toBe('SIGKILL');
    upload.destroy();

    const { rows } = await db.pool.query<{ id: string; status: string }>(`SELECT id, status FROM files WHERE account_id = $1`, [op.account.id]);
    expect(rows).toEqual([{ id: expect.any(String), status: 'pending' }]);
    const accountDir = path.join(storeDir, op.account.id);
    const underNames = () => {
      try {
        return readdirSync(accountDir);
      } catch {
        return [];
      }
    };
    expect(underNames()).toEqual([]);

    // A booking cannot take it: the restarted API answers 404 for its FileID.
    const question = await createTestQuestion(db.pool, op.activity, { question: 'Photo', type: 'file', required: true });
    const date = futureDate(10);
    await createTestTimeslot(db.pool, op.activity, { date, time: '10:00', capacity: 4 });
    const again = await startApi();
    try {
      const refused = await request(again.url, 'POST', '/api/v2/ota/partner/booking', {
        key: op.ota,
        body: bookingBody(op.activity, { date, time: '10:00' }, { Answers: [{ QuestionID: question.id, FileID: rows[0]!.id }] }),
      });
      expect(refused.status).toBe(404);
    } finally {
      again.api.child.kill('SIGTERM');
      await again.api.exited;
    }

    // An hour later the sweeper takes the pending row, its quota and the partial file.
    await db.pool.query(`UPDATE files SET created_at = now() - interval '2 hours' WHERE id = $1`, [rows[0]!.id]);
    const old = new Date(Date.now() - 2 * 3600_000);
    for (const name of readdirSync(partialDir)) utimesSync(path.join(partialDir, name), old, old);
    const swept = await sweepUnreferencedFiles({ pool: db.pool, fileStore: createDirectoryFileStore(storeDir) }, 100);
    expect(swept.deleted).toBe(1);
    expect(swept.leftovers).toBeGreaterThanOrEqual(1);
    expect(readdirSync(partialDir)).toEqual([]);
    expect((await db.pool.query(`SELECT bytes::int AS bytes FROM file_quota_usage WHERE account_id = $1`, [op.account.id])).rows[0].bytes).toBe(0);
  });
});
