// The booking page's static files: index.html at every page address with a strict CSP whose frame-ancestors are the
// page's own embed origins, a 404 (with the page, which shows "page not found") for a slug without an enabled page,
// gzipped hashed assets, and nothing outside the assets folder.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBookingPage } from '../src/booking-page-static.js';

let dir: string;
let server: http.Server;
let base: string;
const asked: string[] = [];
const pages = new Map<string, string[]>([
  ['fjord-kayaks', ['https://www.fjord-kayaks.example', 'https://shop.fjord-kayaks.example:8443']],
  ['no-embeds', []],
]);

function get(pathname: string, encoding = 'identity'): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${pathname}`, { headers: { 'accept-encoding': encoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'booking-page-static-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>Book online</title>');
  await writeFile(path.join(dir, 'secret.js'), 'outside the assets folder');
  await writeFile(path.join(dir, 'assets', 'index-Ab12.js'), `console.log(${JSON.stringify('y'.repeat(4000))});`);
  const app = express();
  serveBookingPage(app, dir, async (slug) => {
    asked.push(slug);
    const origins = pages.get(slug);
    return origins ? { embedOrigins: origins } : null;
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('booking page: index.html', () => {
  it('answers every page address of an enabled page with the page, framed only by its embed origins', async () => {
    for (const address of ['/book/fjord-kayaks', '/book/fjord-kayaks/d3e0d3e0-0000-4000-8000-00000000a002?date=2026-12-01', '/book/fjord-kayaks/manage/abc']) {
      const answer = await get(address);
      expect(answer.status, address).toBe(200);
      expect(answer.body.toString()).toContain('<title>Book online</title>');
      const csp = answer.headers['content-security-policy'];
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain('frame-ancestors https://www.fjord-kayaks.example https://shop.fjord-kayaks.example:8443');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['cache-control']).toBe('no-cache');
    }
    expect((await get('/book/no-embeds')).headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('answers 404 with the page (which shows "page not found") for an unknown slug, a disabled page, or no slug', async () => {
    for (const address of ['/book/nobody-here', '/book/nobody-here/manage/abc', '/book']) {
      const answer = await get(address);
      expect(answer.status, address).toBe(404);
      expect(answer.body.toString()).toContain('<title>Book online</title>');
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    // An address that does not even decode is refused before any look-up.
    expect((await get('/book/%E0%A4%A')).status).toBe(400);
  });
});

describe('booking page: assets', () => {
  it('sends a hashed script gzipped, cached for a year, without asking for any page', async () => {
    asked.length = 0;
    const zipped = await get('/book/assets/index-Ab12.js', 'gzip');
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['cache-control']).toContain('immutable');
    expect(gunzipSync(zipped.body).toString()).toContain('yyyy');
    expect((await get('/book/assets/index-Ab12.js')).headers['content-encoding']).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('answers a missing asset or a path outside the folder with a 404 problem', async () => {
    for (const address of ['/book/assets/gone-0000.js', '/book/assets/..%2Fsecret.js', '/book/assets/%2e%2e/secret.js']) {
      const answer = await get(address, 'gzip');
      expect(answer.status, address).toBe(404);
      expect(answer.body.toString()).not.toContain('outside the assets folder');
    }
  });
});
