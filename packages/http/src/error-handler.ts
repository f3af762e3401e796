// The one error middleware: every failure leaves as application/problem+json. Unexpected errors are logged
// with their stack and answered with a 500 that carries only the request id; a dependency that cannot be reached
// (the database, the event queue) is a 503 with Retry-After, since the same request may simply be sent again.
import type { NextFunction, Request, Response } from 'express';
import { isDatabaseUnavailable, OutcomeUnknownError } from '@backbone/db';
import { DomainError, ValidationError } from '@backbone/domain';
import { IdempotencyError, SignInError, UnavailableError } from '@backbone/use-cases';
import { HttpProblem, sendProblem } from './problems.js';

interface BodyParserError {
  type?: string;
  status?: number;
  expose?: boolean;
}

/**
 * The Retry-After of every 503 `/unavailable`. A PostgreSQL restart or crash recovery takes seconds (1.5 s for the
 * embedded server in the outage test), and the 503s of an outage cost almost nothing (a refused connection answers at
 * once): a client that waits this long comes back about when the database does, without a tight retry loop.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

const TOO_MANY_HOLDS_RETRY_AFTER_SECONDS = 60;
export const UPLOADS_IN_PROGRESS_RETRY_AFTER_SECONDS = 5;

/** What a client should do when its change may or may not have been made. */
export const OUTCOME_UNKNOWN_DETAIL =
  'The connection to the database was lost after the change was sent, so it may or may not have been made. Send the same request again with the same Idempotency-Key (it is never applied twice, and answers what was done), or look the change up (a booking: the bookings sync, or its Reference) before sending it without one.';

/** 503 `/unavailable` with Retry-After. */
export function sendUnavailable(req: Request, res: Response, detail: string, extensions: Record<string, unknown> = {}): void {
  res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  sendProblem(req, res, 'unavailable', detail, extensions);
}

export function notFoundHandler(req: Request, res: Response): void {
  sendProblem(req, res, 'not-found', `No route for ${req.method} ${req.path}.`);
}

export function errorHandler(error: unknown, req: Request, res: Response, _next: NextFunction): void {
  if (res.headersSent) {
    req.log.error({ err: error }, 'error after the response was sent');
    res.destroy();
    return;
  }
  if (error instanceof HttpProblem) {
    res.set(error.headers);
    sendProblem(req, res, error.code, error.message, error.extensions);
    return;
  }
  if (error instanceof ValidationError) {
    sendProblem(req, res, 'validation', error.message, { errors: error.errors });
    return;
  }
  if (error instanceof DomainError) {
    // A partner's own uploads finish within seconds: it may try again soon, not blindly at once.
    if (error.code === 'uploads-in-progress') res.set('Retry-After', String(UPLOADS_IN_PROGRESS_RETRY_AFTER_SECONDS));
    // An address's holds end within the page's hold time (or sooner, released or booked): a minute is a fair wait.
    if (error.code === 'too-many-holds') res.set('Retry-After', String(TOO_MANY_HOLDS_RETRY_AFTER_SECONDS));
    sendProblem(req, res, error.code, error.message, error.extensions);
    return;
  }
  if (error instanceof IdempotencyError) {
    sendProblem(req, res, error.kind === 'conflict' ? 'idempotency-conflict' : 'idempotency-in-progress', error.message);
    return;
  }
  if (error instanceof SignInError) {
    if (error.kind === 'rate-limited') res.set('Retry-After', String(error.retryAfterSeconds));
    sendProblem(req, res, error.kind, error.message);
    return;
  }
  if (error instanceof UnavailableError) {
    // What did not answer (the file store's error), for whoever looks into it; the client only needs to retry.
    if (error.cause !== undefined) req.log.warn({ err: error.cause }, error.message);
    sendUnavailable(req, res, error.message);
    return;
  }
  if (error instanceof OutcomeUnknownError) {
    req.log.warn({ err: error }, 'database connection lost with a change on its way');
    res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    sendProblem(req, res, 'outcome-unknown', OUTCOME_UNKNOWN_DETAIL);
    return;
  }
  if (isDatabaseUnavailable(error)) {
    req.log.warn({ err: error }, 'database unavailable');
    sendUnavailable(
      req,
      res,
      `The database is unavailable at the moment; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds (with the same Idempotency-Key, a retry is never applied twice).`,
    );
    return;
  }
  const parserError = error as BodyParserError;
  switch (parserError.type) {
    case 'entity.parse.failed':
      sendProblem(req, res, 'malformed-json', 'The request body is not valid JSON.');
      return;
    case 'entity.too.large':
      sendProblem(req, res, 'payload-too-large', 'The request body is too large.');
      return;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      sendProblem(req, res, 'unsupported-media-type', 'The request body must be UTF-8 encoded JSON.');
      return;
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      sendProblem(req, res, 'invalid-request', 'The request body could not be read.');
      return;
  }
  // The router marks a path it cannot percent-decode as a 400 URIError without `expose`; it is still the client's fault.
  if ((parserError.expose || error instanceof URIError) && parserError.status && parserError.status >= 400 && parserError.status < 500) {
    sendProblem(req, res, 'invalid-request', 'The request could not be read.');
    return;
  }
  req.log.error({ err: error }, 'unhandled error');
  sendProblem(req, res, 'internal', `An unexpected error occurred. Quote request id ${String(req.id)} when reporting it.`);
}
