// The built console under /console: hashed assets cached for a year, every other path answered with index.html
// (the console's routes live in the browser), all with a Content-Security-Policy that allows no inline script and
// nothing from another origin.
import path from 'node:path';
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
  app.use('/console/assets', express.static(path.join(root, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  app.get(['/console', '/console/{*rest}'], (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(path.join(root, 'index.html'), (error) => (error ? next(error) : undefined));
  });
}
