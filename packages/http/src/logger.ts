// Request logging: every line about a request carries its request id. The logger itself is @backbone/logging's,
// re-exported here so an API's main finds everything it wires in one package.
import { randomUUID } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import { redactRequestPath, type Logger } from '@backbone/logging';

export { createLogger, writeLogsBeforeExit, type Logger } from '@backbone/logging';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** The request id, echoed in X-Request-Id and in every problem. */
      id: string;
      /** A logger whose lines carry this request's id. */
      log: Logger;
    }
  }
}

// A caller's request id is reused when it is a plausible id, so traces join up across services.
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const CHILD_LOGGER = Symbol('child logger');

/**
 * Gives each request an id (X-Request-Id) and logs one line when its response is finished. req.log is a getter on
 * the app's request prototype that builds the per-request child logger on first use: most requests never log
 * anything but their one line, and a child per request (or a property defined per request) is costly. `observe`, when
 * given, is called in the same finish listener with the request's duration (the HTTP metrics).
 */
export function requestLogger(app: Express, logger: Logger, observe?: (req: Request, statusCode: number, elapsedMs: number) => void) {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Request & { [CHILD_LOGGER]?: Logger }) {
      return (this[CHILD_LOGGER] ??= logger.child({ reqId: this.id }));
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && ACCEPTED_REQUEST_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    req.id = id;
    const started = performance.now();
    res.once('finish', () => {
      const elapsedMs = performance.now() - started;
      observe?.(req, res.statusCode, elapsedMs);
      const line = {
        reqId: id,
        req: { method: req.method, url: redactRequestPath(req.originalUrl) },
        res: { statusCode: res.statusCode },
        responseTime: Math.round(elapsedMs),
      };
      if (res.statusCode >= 500) logger.error(line, 'request failed');
      else logger.info(line, 'request completed');
    });
    next();
  };
}
