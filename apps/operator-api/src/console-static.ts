// The built console under /console: hashed assets cached for a year, every other path answered with index.html
// (the console's routes live in the browser), all with a Content-Security-Policy that allows no inline script and
// nothing from another origin. A file that is not there is a 404 problem, never a 500: a browser holding an old
// index.html after a deploy asks for scripts that are gone.
import path from 'node:path';
import express, { type Express, type Request, type Response } from 'express';
import { gzippedAssets, isMissingFile, sendProblem } from '@backbone/http';

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
  // Scripts and styles are gzipped on their first request and kept (a few hundred KB): the console's JavaScript is
  // 380 KB raw, 120 KB gzipped, and neither nginx nor the dev gateway compresses. Not at start: a console
  // built again while the server runs (a deploy, or a build beside the tests) has new files that must be found too.
  const gzipped = gzippedAssets(path.join(root, 'assets'));
  app.get('/console/assets/:file', async (req, res, next) => {
    if (req.acceptsEncodings('gzip', 'identity') !== 'gzip') return next();
    const asset = await gzipped(req.params.file);
    if (!asset) return next();
    res.vary('Accept-Encoding');
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.type(asset.type).send(asset.body);
  });
  // Anything serve-static cannot send (no such file, a folder, a name it refuses) falls through to the 404 below.
  app.use('/console/assets', express.static(path.join(root, 'assets'), { immutable: true, maxAge: '365d', index: false, redirect: false }));
  app.use('/console/assets', (req, res) => sendProblem(req, res, 'not-found', 'No such console file; reload the console to get the current one.'));
  app.get(['/console', '/console/{*rest}'], (req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(root, 'index.html'), (error) => {
      if (!error) return;
      if (isMissingFile(error) && !res.headersSent) consoleNotBuilt(req, res);
      else next(error);
    });
  });
}

function consoleNotBuilt(req: Request, res: Response): void {
  res.removeHeader('Cache-Control');
  sendProblem(req, res, 'not-found', 'The console is not built on this server (npm run build builds it).');
}
