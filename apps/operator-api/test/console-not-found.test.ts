// Unknown files under /console through the real operator app: a missing script, style or folder is a 404 problem,
// never a 500 (a browser holding an old index.html after a deploy asks for scripts that are gone); the console's own
// pages and assets are still served.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { request } from '@backbone/testkit';
import { PROBLEM_BASE, useOperatorApi } from './support.js';

const consoleDir = mkdtempSync(path.join(os.tmpdir(), 'console-missing-'));
mkdirSync(path.join(consoleDir, 'assets'));
writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(path.join(consoleDir, 'assets', 'index-Abc123.js'), 'console.log("built");');
writeFileSync(path.join(consoleDir, 'secret.txt'), 'outside the assets folder');
const { server } = useOperatorApi({ consoleDir });
afterAll(() => rmSync(consoleDir, { recursive: true, force: true }));

const get = (pathname: string, encoding = 'gzip, deflate, br') => request(server.url, 'GET', pathname, { headers: { 'accept-encoding': encoding } });

describe('missing console files', () => {
  it.each([
    '/console/assets/nope.js',
    '/console/assets/x.css',
    '/console/assets/',
    '/console/assets',
    '/console/assets/index-Abc123.js.map',
    '/console/assets/nope.png',
    '/console/assets/sub/dir.js',
    '/console/assets/..%2fsecret.txt',
    '/console/assets/.hidden.js',
    '/console/assets/%00.js',
  ])('GET %s is a 404 problem, gzip accepted or not', async (pathname) => {
    for (const encoding of ['gzip', 'identity']) {
      const answer = await get(pathname, encoding);
      expect(answer.status, `${pathname} with ${encoding}`).toBe(404);
      expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found`, status: 404 });
      expect(answer.text).not.toContain('outside the assets folder');
    }
  });

  it("still serves the built assets and the console's pages", async () => {
    const script = await get('/console/assets/index-Abc123.js', 'identity');
    expect(script.status).toBe(200);
    expect(script.text).toBe('console.log("built");');
    for (const page of ['/console', '/console/', '/console/bookings', '/console/deep/link']) {
      const answer = await get(page);
      expect(answer.status, page).toBe(200);
      expect(answer.text).toContain('<title>console</title>');
    }
  });

  it('answers 404, not 500, for every console page while the console is not built', async () => {
    rmSync(path.join(consoleDir, 'index.html'));
    try {
      for (const page of ['/console', '/console/bookings']) {
        const answer = await get(page);
        expect(answer.status, page).toBe(404);
        expect(answer.body).toMatchObject({ type: `${PROBLEM_BASE}/not-found` });
      }
    } finally {
      writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    }
  });
});
