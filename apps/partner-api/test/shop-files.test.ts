// The booking page's upload of a file answer (POST /api/v2/shop/{Slug}/holds/{Token}/files): stored for that hold and
// taken by its confirm; refused with a problem and nothing kept when the bytes are not the declared type, the body is
// over 10 MiB, the hold is gone or the token opens nothing; and limited per client address (429 with Retry-After).
import { beforeAll, describe, expect, it } from 'vitest';
import { createAddressRateLimiter, createLogger, createRateLimitRedis } from '@backbone/http';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { createTestQuestion, request, sampleFile, serveTestApp, useTestRedis } from '@backbone/testkit';
import { CUSTOMER, createShopOperator, freshSlot, shopClient, type ShopOperator } from './shop-support.js';
import { PROBLEM_BASE, usePartnerApi } from './support.js';

const { db, server } = usePartnerApi();
const redis = useTestRedis();
let op: ShopOperator;
let waiverQuestion: number;
const MAX_BYTES = 10 * 1024 * 1024;

beforeAll(async () => {
  op = await createShopOperator(db.pool);
  waiverQuestion = (await createTestQuestion(db.pool, op.activity, { question: 'Signed waiver', type: 'file', required: true })).id;
});

const upload = (base: string, token: string, bytes: Uint8Array, contentType: string, headers: Record<string, string> = {}) =>
  request(base, 'POST', `/api/v2/shop/${op.slug}/holds/${token}/files`, { rawBody: bytes, headers: { 'content-type': contentType, ...headers } });

let holds = 0;

/** A hold of its own, each from another address (an address may hold at most 5 at once). */
async function newHold(): Promise<string> {
  const slot = await freshSlot(db.pool, op.activity);
  const held = await shopClient(() => server.url, op.slug).send(
    'POST',
    '/holds',
    { ActivityID: op.activity.activityId, Date: slot.date, Time: slot.time, Participants: 1 },
    { 'x-forwarded-for': `198.51.100.${++holds}` },
  );
  expect(held.status).toBe(201);
  return held.body.Token as string;
}

async function files(): Promise<Array<{ id: string; status: string; hold_reference: string | null; booking_reference: string | null }>> {
  const { rows } = await db.pool.query(
    `SELECT f.id, f.status, h.reference AS hold_reference, b.reference AS booking_reference
       FROM files f LEFT JOIN bookings h ON h.id = f.hold_booking_id LEFT JOIN bookings b ON b.id = f.booking_id
      WHERE f.account_id = $1 ORDER BY f.created_at`,
    [op.account.id],
  );
  return rows;
}

describe('a file answer from the booking page', () => {
  it("is stored for the hold, and the hold's confirm takes it as the answer of the file question", async () => {
    const token = await newHold();
    const shop = shopClient(() => server.url, op.slug);
    const reference = (await shop.booking(token)).body.Reference as string;
    const pdf = sampleFile('application/pdf', 40_000);
    const stored = await upload(server.url, token, pdf, 'application/pdf', { 'content-disposition': 'attachment; filename="Ana waiver.pdf"' });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ FileID: expect.any(String), Name: 'Ana waiver.pdf', ContentType: 'application/pdf', Size: 40_000 });
    expect((await files()).at(-1)).toMatchObject({ id: stored.body.FileID, status: 'stored', hold_reference: reference, booking_reference: null });

    const confirmed = await shop.confirm(token, { Customer: CUSTOMER, Answers: [{ QuestionID: waiverQuestion, FileID: stored.body.FileID }] });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await files()).at(-1)).toMatchObject({ id: stored.body.FileID, booking_reference: reference });
  });

  it("another hold's confirm cannot take it: a 404, as for a file that does not exist", async () => {
    const token = await newHold();
    const stored = await upload(server.url, token, sampleFile('image/png', 5_000), 'image/png');
    expect(stored.status).toBe(201);
    const other = await newHold();
    const shop = shopClient(() => server.url, op.slug);
    const refused = await shop.confirm(other, { Customer: CUSTOMER, Answers: [{ QuestionID: waiverQuestion, FileID: stored.body.FileID }] });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toContain('Answers[0].FileID');
    expect((await shop.booking(other)).body.Status).toBe('on_hold');
  });
});

describe('refused, nothing kept', () => {
  it.each([
    ['a renamed .exe as application/pdf', sampleFile('exe', 30_000), 'application/pdf'],
    ['a PNG as image/jpeg', sampleFile('image/png', 30_000), 'image/jpeg'],
    ['text as application/pdf', sampleFile('text', 30_000), 'application/pdf'],
    ['a PDF as text/plain', sampleFile('application/pdf', 30_000), 'text/plain'],
  ])('415 for %s: the type is sniffed from the bytes', async (_what, bytes, type) => {
    const token = await newHold();
    const before = await files();
    const res = await upload(server.url, token, bytes, type);
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: `${PROBLEM_BASE}/unsupported-media-type`, status: 415 });
    expect(await files()).toEqual(before);
  });

  it('413 for one byte over 10 MiB; exactly 10 MiB is taken', async () => {
    const token = await newHold();
    const before = await files();
    const over = await upload(server.url, token, sampleFile('application/pdf', MAX_BYTES + 1), 'application/pdf');
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ type: `${PROBLEM_BASE}/payload-too-large`, MaxBytes: MAX_BYTES });
    expect(await files()).toEqual(before);
    const exact = await upload(server.url, await newHold(), sampleFile('application/pdf', MAX_BYTES), 'application/pdf');
    expect(exact.status).toBe(201);
    expect(exact.body.Size).toBe(MAX_BYTES);
  });

  it('404 for a token that opens nothing, 409 once the hold is released or confirmed', async () => {
    const before = await files();
    const pdf = sampleFile('application/pdf', 2_000);
    expect((await upload(server.url, 'A'.repeat(43), pdf, 'application/pdf')).status).toBe(404);
    const shop = shopClient(() => server.url, op.slug);
    const released = await newHold();
    expect((await shop.release(released)).status).toBe(204);
    const afterRelease = await upload(server.url, released, pdf, 'application/pdf');
    expect(afterRelease.status).toBe(409);
    const confirmed = await newHold();
    const stored = await upload(server.url, confirmed, pdf, 'application/pdf');
    expect((await shop.confirm(confirmed, { Customer: CUSTOMER, Answers: [{ QuestionID: waiverQuestion, FileID: stored.body.FileID }] })).status).toBe(200);
    const afterConfirm = await upload(server.url, confirmed, pdf, 'application/pdf');
    expect(afterConfirm.status).toBe(409);
    expect(afterConfirm.body.type).toBe(`${PROBLEM_BASE}/invalid-transition`);
    expect((await files()).length).toBe(before.length + 1);
  });
});

describe('per-address limit', () => {
  it('answers 429 with Retry-After once the upload budget of an address is spent, for that address only', async () => {
    const limiterRedis = createRateLimitRedis(redis.redisUrl, { clientName: 'shop-upload-limits-test', timeoutMs: 1000 });
    await new Promise((resolve) => limiterRedis.once('ready', resolve));
    const limited = await serveTestApp(
      createTestPartnerApp(db.pool, {
        shopRateLimiter: createAddressRateLimiter({
          redis: limiterRedis,
          logger: createLogger({ level: 'silent', name: 'test' }),
          keyPrefix: `${redis.prefix}:shop-upload-limits`,
          budgets: { read: { perSecond: 100, burst: 100 }, hold: { perSecond: 100, burst: 100 }, upload: { perSecond: 1, burst: 3 } },
        }),
      }),
    );
    try {
      const token = await newHold();
      const pdf = sampleFile('application/pdf', 2_000);
      const from = (address: string) => upload(limited.url, token, pdf, 'application/pdf', { 'x-forwarded-for': address });
      for (let i = 0; i < 3; i++) expect((await from('192.0.2.10')).status).toBe(201);
      const before = await files();
      const refused = await from('192.0.2.10');
      expect(refused.status).toBe(429);
      expect(refused.body.type).toBe(`${PROBLEM_BASE}/rate-limited`);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await files()).toEqual(before);
      expect((await from('192.0.2.11')).status).toBe(201);
    } finally {
      await limited.close();
      limiterRedis.disconnect();
    }
  });
});
