// OCTO's plumbing in the partner API: the /octo operations sit in their own table with their own answers for what
// fails, in OCTO's error form ({ error, errorMessage, <the field> }) rather than problem+json: unknown /octo paths,
// bad JSON, bodies too large, rate limits and a lost database included. Statuses: 400 for OCTO's request errors
// (INVALID_*, BAD_REQUEST, UNPROCESSABLE_ENTITY), 401 UNAUTHORIZED, 403 FORBIDDEN, 404 for an unknown /octo path,
// 413 and 429 (with Retry-After) as HTTP says, 500 INTERNAL_SERVER_ERROR, and 503 INTERNAL_SERVER_ERROR with
// Retry-After when the database cannot be reached (send the same request again). docs/octo.md has the table.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { isDatabaseUnavailable, OutcomeUnknownError } from '@backbone/db';
import { DomainError, OctoError, type OctoView } from '@backbone/domain';
import { createOperationRoutes, HttpProblem, UNAVAILABLE_RETRY_AFTER_SECONDS, type OperationRoutes } from '@backbone/http';
import { IdempotencyError, UnavailableError } from '@backbone/use-cases';
import { OCTO_CAPABILITY_PRICING } from '@backbone/contracts';

type OctoErrorBody = { error: string; errorMessage: string } & Record<string, string>;

function sendOctoError(res: Response, status: number, body: OctoErrorBody): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

const badRequest = (errorMessage: string): OctoErrorBody => ({ error: 'BAD_REQUEST', errorMessage });

/** The partner API's state refusals (409s there) are OCTO's UNPROCESSABLE_ENTITY: the request was read, but cannot be done. */
const UNPROCESSABLE: ReadonlySet<string> = new Set([
  'insufficient-capacity',
  'timeslot-unavailable',
  'invalid-transition',
  'hold-expired',
  'cancellation-window-closed',
  'change-window-closed',
  'capacity-below-booked',
]);

export function octoErrorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    req.log.error({ err: error }, 'error after the response was sent');
    res.destroy();
    return;
  }
  if (error instanceof OctoError) {
    sendOctoError(res, 400, { error: error.code, errorMessage: error.message, ...error.echo });
    return;
  }
  if (error instanceof HttpProblem) {
    res.set(error.headers);
    switch (error.code) {
      case 'unauthorized':
        sendOctoError(res, 401, { error: 'UNAUTHORIZED', errorMessage: error.message });
        return;
      case 'forbidden':
        sendOctoError(res, 403, { error: 'FORBIDDEN', errorMessage: error.message });
        return;
      case 'rate-limited':
        sendOctoError(res, 429, { error: 'TOO_MANY_REQUESTS', errorMessage: error.message });
        return;
      case 'payload-too-large':
        sendOctoError(res, 413, badRequest(error.message));
        return;
      default:
        sendOctoError(res, 400, badRequest(error.message));
        return;
    }
  }
  if (error instanceof DomainError) {
    sendOctoError(res, 400, UNPROCESSABLE.has(error.code) ? { error: 'UNPROCESSABLE_ENTITY', errorMessage: error.message } : badRequest(error.message));
    return;
  }
  if (error instanceof IdempotencyError) {
    sendOctoError(res, 400, { error: 'UNPROCESSABLE_ENTITY', errorMessage: error.message });
    return;
  }
  if (error instanceof OutcomeUnknownError) {
    req.log.warn({ err: error }, 'database connection lost with a change on its way');
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    sendOctoError(res, 503, {
      error: 'INTERNAL_SERVER_ERROR',
      errorMessage:
        'The connection to the database was lost after the change was sent, so it may or may not have been made: send the same request again (a reservation with the same uuid is never made twice), or look the booking up first.',
    });
    return;
  }
  if (error instanceof UnavailableError || isDatabaseUnavailable(error)) {
    req.log.warn({ err: error }, 'dependency unavailable');
    res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    sendOctoError(res, 503, {
      error: 'INTERNAL_SERVER_ERROR',
      errorMessage: `The service is unavailable at the moment; send the same request again in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds.`,
    });
    return;
  }
  const parserError = error as { type?: string; status?: number; expose?: boolean };
  if (parserError.type === 'entity.too.large') {
    sendOctoError(res, 413, badRequest('The request body is too large.'));
    return;
  }
  if (parserError.type === 'entity.parse.failed') {
    sendOctoError(res, 400, badRequest('The request body is not valid JSON.'));
    return;
  }
  if ((parserError.expose || error instanceof URIError) && parserError.status && parserError.status >= 400 && parserError.status < 500) {
    sendOctoError(res, 400, badRequest('The request could not be read.'));
    return;
  }
  req.log.error({ err: error }, 'unhandled error');
  sendOctoError(res, 500, {
    error: 'INTERNAL_SERVER_ERROR',
    errorMessage: `An unexpected error occurred. Quote request id ${String(req.id)} when reporting it.`,
  });
}

function octoNotFound(req: Request, res: Response): void {
  sendOctoError(res, 404, { error: 'NOT_FOUND', errorMessage: `No OCTO endpoint for ${req.method} ${req.originalUrl.split('?')[0]}.` });
}

/** The /octo operations, their not-found answer and their error handler, as one router in the partner app. */
export function createOctoRouter(mount: (routes: OperationRoutes) => void): Router {
  const operations = createOperationRoutes();
  mount(operations);
  const router = express.Router();
  router.use(operations.middleware);
  router.use('/octo', octoNotFound);
  router.use(octoErrorHandler);
  return router;
}

/**
 * The capabilities the request asked for (Octo-Capabilities, comma-separated) that this API serves: octo/pricing.
 * The answer names them in its own Octo-Capabilities header.
 */
export function octoViewOf(req: Request, res: Response): OctoView {
  const asked = (req.headers['octo-capabilities'] ?? '')
    .toString()
    .split(',')
    .map((c) => c.trim().toLowerCase());
  const pricing = asked.includes(OCTO_CAPABILITY_PRICING);
  res.setHeader('Octo-Capabilities', pricing ? OCTO_CAPABILITY_PRICING : '');
  return { pricing };
}

/** Who calls, for the OCTO use cases: the ota key's partner (every ota key has one). */
export function octoCallerOf(auth: { accountId: string; partnerId: string | null; keyId: string | null; test: boolean }) {
  if (!auth.partnerId) throw new HttpProblem('forbidden', 'This API key belongs to no partner.');
  return { accountId: auth.accountId, partnerId: auth.partnerId, apiKeyId: auth.keyId, test: auth.test };
}
