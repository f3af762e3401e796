// The file sweeper as the booking worker runs it: uploads nobody referenced within 24 hours are deleted (bytes, row,
// quota), a file a booking references is kept however old, and two sweepers side by side delete each file once.
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createApiKey } from '@backbone/db';
import { createDirectoryFileStore } from '@backbone/file-store';
import {
  createTestAccount,
  createTestActivity,
  createTestQuestion,
  createTestTimeslot,
  futureDate,
  sampleFile,
  useTestDatabase,
  waitFor,
} from '@backbone/testkit';
import { createBooking, uploadFile } from '@backbone/use-cases';
import { startFileSweeper } from '../src/file-sweeper.js';
import { silentLogger } from './support.js';

const db = useTestDatabase();

describe('file sweeper', () => {
  it('deletes the files nobody referenced within their 24 hours, once, and keeps the one a booking took', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'backbone-file-sweeper-'));
    const fileStore = createDirectoryFileStore(dir);
    const { account } = await createTestAccount(db.pool);
    const partner = await createApiKey(db.pool, account.id, { name: 'Partner', scopes: ['ota'] });
    const upload = async () => {
      const pdf = sampleFile('application/pdf', 3000);
      const file = await uploadFile(
        { pool: db.pool, fileStore, fileQuotaBytes: 1_000_000 },
        {
          accountId: account.id,
          uploader: { partnerId: partner.partnerId! },
          apiKeyId: partner.id,
          contentType: 'application/pdf',
          length: pdf.length,
          fileName: 'waiver.pdf',
          body: Readable.from([pdf]),
          clientConnected: () => true,
        },
      );
      return file.FileID;
    };
    const expired = [await upload(), await upload(), await upload()];
    const young = await upload();
    const referenced = await upload();
    const activity = await createTestActivity(db.pool, account.id);
    const question = await createTestQuestion(db.pool, activity, { question: 'Waiver', type: 'file', required: true });
    const date = futureDate(4, activity.timeZone);
    await createTestTimeslot(db.pool, activity, { date, time: '10:00', capacity: 5 });
    await createBooking(
      { pool: db.pool },
      {
        accountId: account.id,
        apiKeyId: partner.id,
        partnerId: partner.partnerId,
        hold: null,
        channel: 'ota',
        activityId: activity.activityId,
        date,
        time: '10:00',
        participants: 1,
        customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' },
        paymentReference: null,
        answers: [{ QuestionID: question.id, FileID: referenced }],
      },
    );
    await db.pool.query(`UPDATE files SET expires_at = now() - interval '1 minute' WHERE id = ANY($1::uuid[])`, [[...expired, referenced]]);

    const sweepers = [1, 2].map(() => startFileSweeper({ pool: db.pool, fileStore, intervalMs: 20, batchSize: 1, logger: silentLogger }));
    try {
      await waitFor(
        'the expired files to be deleted',
        async () => (await db.pool.query(`SELECT 1 FROM files WHERE id = ANY($1::uuid[])`, [expired])).rowCount === 0,
      );
    } finally {
      await Promise.all(sweepers.map((s) => s.stop()));
    }
    const { rows } = await db.pool.query<{ id: string }>(`SELECT id FROM files WHERE account_id = $1 ORDER BY id`, [account.id]);
    expect(rows.map((r) => r.id)).toEqual([young, referenced].sort());
    expect(readdirSync(path.join(dir, account.id)).sort()).toEqual([young, referenced].sort());
    const quota = await db.pool.query<{ bytes: string }>(`SELECT bytes::text FROM file_quota_usage WHERE account_id = $1`, [account.id]);
    expect(quota.rows[0]!.bytes).toBe('6000');
  });
});
