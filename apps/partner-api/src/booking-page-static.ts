// The built booking page (apps/booking-page) under /book: hashed assets cached for a year, and index.html for every
// page address (/book/{Slug}, /book/{Slug}/{ActivityID}, /book/{Slug}/manage/{Token}; the routes live in the
// browser). A strict Content-Security-Policy: no inline script, nothing from another origin, and framing only by the
// origins the account lists (frame-ancestors). An unknown slug or a page that is off answers 404, with the page
// itself so the customer reads "page not found" rather than a problem document.
import path from 'node:path';
import type { Express, Request, Response } from 'express';
import { isMissingFile, sendProblem, serveHashedAssets } from '@backbone/http';

/** What serving a page needs to know of it: null when there is no enabled page with this slug. */
export type FindBookingPageFraming = (slug: string) => Promise<{ embedOrigins: readonly string[] } | null>;

export function bookingPageCsp(embedOrigins: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${embedOrigins.length ? embedOrigins.join(' ') : "'none'"}`,
  ].join('; ');
}

const STRICT_CSP = bookingPageCsp([]);

export function serveBookingPage(app: Express, dir: string, findFraming: FindBookingPageFraming): void {
  const root = path.resolve(dir);
  app.use('/book', (_req, res, next) => {
    res.setHeader('Content-Security-Policy', STRICT_CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // The manage link's token is in the path: it must not leave in a Referer.
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });
  serveHashedAssets(app, '/book/assets', path.join(root, 'assets'), 'No such booking page file; reload the page to get the current one.');
  app.get(['/book', '/book/{*rest}'], async (req, res, next) => {
    const slug = slugOf(req.path);
    const framing = slug ? await findFraming(slug).catch((error: unknown) => next(error)) : null;
    if (framing === undefined) return;
    if (framing) res.setHeader('Content-Security-Policy', bookingPageCsp(framing.embedOrigins));
    res.setHeader('Cache-Control', 'no-cache');
    res.status(framing ? 200 : 404).sendFile(path.join(root, 'index.html'), (error) => {
      if (!error) return;
      if (isMissingFile(error) && !res.headersSent) pageNotBuilt(req, res);
      else next(error);
    });
  });
}

/** The slug of a page address (/book/{Slug}/...), or null when there is none or it is not even decodable. */
function slugOf(pathname: string): string | null {
  const segment = pathname.split('/')[2];
  if (!segment) return null;
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function pageNotBuilt(req: Request, res: Response): void {
  res.removeHeader('Cache-Control');
  sendProblem(req, res, 'not-found', 'The booking page is not built on this server (npm run build builds it).');
}
