// The manage token travels in URL paths (the page's /book/{Slug}/manage/{Token}, the shop API's /holds/{Token} and
// /bookings/{Token}): no log line and no metric ever holds it, whoever reads the logs could otherwise open the booking.
// The request lines still say which operation was asked, with *** where the token was.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { registry, startMetricsServer, type MetricsServer } from '@backbone/metrics';
import { createTestPartnerApp } from '@backbone/test-apps/partner-api';
import { request, useTestDatabase, useTestServer } from '@backbone/testkit';
import { CUSTOMER, createShopOperator, freshSlot, shopClient, type ShopOperator } from './shop-support.js';

const lines: string[] = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(line);
    done();
  },
});

const pageDir = mkdtempSync(path.join(os.tmpdir(), 'booking-page-'));
writeFileSync(path.join(pageDir, 'index.html'), '<!doctype html><title>Book online</title>');

const db = useTestDatabase();
const server = useTestServer(() => createTestPartnerApp(db.pool, { logger: pino({ level: 'info', name: 'partner-api' }, capture), bookingPageDir: pageDir }));
let metrics: MetricsServer;
let op: ShopOperator;
let shop: ReturnType<typeof shopClient>;

beforeAll(async () => {
  metrics = await startMetricsServer({ port: 0, host: '127.0.0.1', registry });
  op = await createShopOperator(db.pool);
  shop = shopClient(() => server.url, op.slug);
});
afterAll(() => metrics.close());

/** The request lines of the paths logged so far that start with `prefix` (the line is written as the response finishes). */
async function requestLines(prefix: string, count: number): Promise<Array<{ req: { method: string; url: string }; res: { statusCode: number } }>> {
  for (let i = 0; i < 200; i++) {
    const found = lines
      .map((line) => JSON.parse(line) as { msg: string; req?: { method: string; url: string }; res: { statusCode: number } })
      .filter((line) => line.msg.startsWith('request') && line.req?.url.startsWith(prefix)) as Array<{
      req: { method: string; url: string };
      res: { statusCode: number };
    }>;
    if (found.length >= count) return found;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`fewer than ${count} request lines under ${prefix}`);
}

describe('the manage token in logs and metrics', () => {
  it('never appears in a request line or a metric, whichever path carries it', async () => {
    const slot = await freshSlot(db.pool, op.activity);
    const other = await freshSlot(db.pool, op.activity);
    const held = await shop.hold(op.activity, slot);
    expect(held.status).toBe(201);
    const token = held.body.Token as string;

    expect((await shop.confirm(token)).status).toBe(200);
    expect((await shop.booking(token)).status).toBe(200);
    expect((await shop.move(token, other)).status).toBe(200);
    // A path no operation takes (the operations' paths are case-sensitive) is logged too: the redaction ignores case.
    expect((await request(server.url, 'GET', `/API/V2/SHOP/${op.slug}/BOOKINGS/${token}`)).status).toBe(404);
    expect((await shop.cancel(token)).status).toBe(200);
    expect((await shop.release(token)).status).toBe(204);
    expect((await request(server.url, 'GET', `/book/${op.slug}/manage/${token}?from=mail`)).status).toBe(200);
    // A refused one is logged too, still without it.
    expect((await shop.send('POST', `/holds/${token}/files`, 'not a file', { 'content-type': 'text/plain' })).status).toBeGreaterThanOrEqual(400);

    const shopLines = await requestLines(`/api/v2/shop/${op.slug}/`, 6);
    expect(shopLines.map((line) => `${line.req.method} ${line.req.url}`)).toEqual(
      expect.arrayContaining([
        `POST /api/v2/shop/${op.slug}/holds/***/confirm`,
        `GET /api/v2/shop/${op.slug}/bookings/***`,
        `POST /api/v2/shop/${op.slug}/bookings/***/move`,
        `POST /api/v2/shop/${op.slug}/bookings/***/cancel`,
        `DELETE /api/v2/shop/${op.slug}/holds/***`,
        `POST /api/v2/shop/${op.slug}/holds/***/files`,
      ]),
    );
    const [pageLine] = await requestLines(`/book/${op.slug}/`, 1);
    expect(pageLine!.req.url).toBe(`/book/${op.slug}/manage/***?from=mail`);
    await requestLines(`/API/V2/SHOP/`, 1);

    expect(lines.length).toBeGreaterThan(8);
    for (const line of lines) expect(line).not.toContain(token);
    const scraped = await (await fetch(`${metrics.url}/metrics`)).text();
    expect(scraped).toContain('getShopBooking');
    expect(scraped).not.toContain(token);
  });

  it('the customer answers still carry it where the customer needs it (the hold answers its token)', async () => {
    const held = await shop.hold(op.activity, await freshSlot(db.pool, op.activity));
    expect(held.body.Token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await shop.confirm(held.body.Token, { Customer: CUSTOMER })).status).toBe(200);
  });
});
