// The built console under /console: hashed assets cached for a year, every other path answered with index.html
// (the console's routes live in the browser), all with a Content-Security-Policy that allows no inline script and
// nothing from another origin. A file that is not there is a 404 problem, never a 500: a browser holding an old
// index.html after a deploy asks for scripts that are gone.
import path from 'node:path';
import type { Express, Request, Response } from 'express';
import { isMissingFile, sendProblem, serveHashedAssets } from '@backbone/http';

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
  serveHashedAssets(app, '/console/assets', path.join(root, 'assets'), 'No such console file; reload the console to get the current one.');
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
