// The console's static files: a script written after the server started (a console built again while it runs) is
// found and sent gzipped, and nothing outside the assets folder is read.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveConsole } from '../src/console-static.js';

let dir: string;
let server: http.Server;
let base: string;

function get(pathname: string, encoding: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
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
  dir = await mkdtemp(path.join(os.tmpdir(), 'console-static-'));
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(path.join(dir, 'secret.js'), 'outside the assets folder');
  const app = express();
  serveConsole(app, dir);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('console assets', () => {
  it('sends gzipped a script that appeared after the server started, once it exists', async () => {
    expect((await get('/console/assets/index-Late1234.js', 'gzip')).status).toBe(404);
    await mkdir(path.join(dir, 'assets'), { recursive: true });
    const script = `console.log(${JSON.stringify('x'.repeat(5000))});`;
    await writeFile(path.join(dir, 'assets', 'index-Late1234.js'), script);
    const zipped = await get('/console/assets/index-Late1234.js', 'gzip, br');
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toMatch(/^text\/javascript/);
    expect(gunzipSync(zipped.body).toString()).toBe(script);
    const plain = await get('/console/assets/index-Late1234.js', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('reads nothing outside the assets folder', async () => {
    for (const name of ['..%2Fsecret.js', '%2E%2E%2Fsecret.js', '.%2E%2Fsecret.js']) {
      const answer = await get(`/console/assets/${name}`, 'gzip');
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.body.toString()).not.toContain('outside the assets folder');
    }
  });
});
