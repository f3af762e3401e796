// The built console under /console: hashed assets cached for a year, every other path answered with index.html
// (the console's routes live in the browser), all with a Content-Security-Policy that allows no inline script and
// nothing from another origin.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import express, { type Express } from 'express';

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function serveConsole(app: Express, consoleDir: string): void {
  const root = path.resolve(consoleDir);
  app.use('/console', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  // The scripts and styles gzipped once at start (a few hundred KB): the console's JavaScript is 372 KB raw, 117 KB
  // gzipped, and neither nginx nor the dev gateway compresses.
  const gzipped = gzipAssets(path.join(root, 'assets'));
  app.get('/console/assets/:file', (req, res, next) => {
    const asset = gzipped.get(req.params.file);
    if (!asset || req.acceptsEncodings('gzip', 'identity') !== 'gzip') return next();
    res.vary('Accept-Encoding');
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(asset.type).send(asset.body);
  });
  app.use('/console/assets', express.static(path.join(root, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  app.get(['/console', '/console/{*rest}'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(root, 'index.html'), (error) => (error ? next(error) : undefined));
  });
}

function gzipAssets(dir: string): Map<string, { type: string; body: Buffer }> {
  const assets = new Map<string, { type: string; body: Buffer }>();
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return assets; // no built console: express.static answers 404s
  }
  for (const file of files) {
    const type = file.endsWith('.js') ? 'text/javascript; charset=utf-8' : file.endsWith('.css') ? 'text/css; charset=utf-8' : null;
    if (type) assets.set(file, { type, body: gzipSync(readFileSync(path.join(dir, file)), { level: 9 }) });
  }
  return assets;
}
