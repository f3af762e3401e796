// The one registry of problem kinds: each code has its status, title and `type` URI (under PROBLEM_BASE).
// Domain errors, HTTP-level failures and library errors all end up here, via the error middleware; what Node's HTTP
// parser refuses via client-errors.ts. `uri-too-long` and `gateway-timeout` are sent only by the nginx gateway
// (deploy/nginx.conf), whose problem bodies are written out there.
import type { Request, Response } from 'express';
import { ProblemDocument } from 'http-problem-details';

export const PROBLEMS = {
  'invalid-request': { status: 400, title: 'Bad Request' },
  'malformed-json': { status: 400, title: 'Bad Request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  'invalid-credentials': { status: 401, title: 'Unauthorized' },
  forbidden: { status: 403, title: 'Forbidden' },
  'password-change-required': { status: 403, title: 'Forbidden' },
  'account-choice-required': { status: 403, title: 'Forbidden' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  'request-timeout': { status: 408, title: 'Request Timeout' },
  'insufficient-capacity': { status: 409, title: 'Conflict' },
  'timeslot-unavailable': { status: 409, title: 'Conflict' },
  'idempotency-in-progress': { status: 409, title: 'Conflict' },
  'capacity-below-booked': { status: 409, title: 'Conflict' },
  'invalid-transition': { status: 409, title: 'Conflict' },
  'hold-expired': { status: 409, title: 'Conflict' },
  'cancellation-window-closed': { status: 409, title: 'Conflict' },
  'change-window-closed': { status: 409, title: 'Conflict' },
  'webhook-endpoint-limit': { status: 409, title: 'Conflict' },
  'file-in-use': { status: 409, title: 'Conflict' },
  'last-owner': { status: 409, title: 'Conflict' },
  'account-switched': { status: 409, title: 'Conflict' },
  'slug-taken': { status: 409, title: 'Conflict' },
  'places-available': { status: 409, title: 'Conflict' },
  'link-not-valid': { status: 410, title: 'Gone' },
  'length-required': { status: 411, title: 'Length Required' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'file-quota-exceeded': { status: 413, title: 'Payload Too Large' },
  'uri-too-long': { status: 414, title: 'URI Too Long' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  validation: { status: 422, title: 'Unprocessable Entity' },
  'idempotency-conflict': { status: 422, title: 'Unprocessable Entity' },
  'rate-limited': { status: 429, title: 'Too Many Requests' },
  'uploads-in-progress': { status: 429, title: 'Too Many Requests' },
  'too-many-holds': { status: 429, title: 'Too Many Requests' },
  'headers-too-large': { status: 431, title: 'Request Header Fields Too Large' },
  internal: { status: 500, title: 'Internal Server Error' },
  'bad-gateway': { status: 502, title: 'Bad Gateway' },
  unavailable: { status: 503, title: 'Service Unavailable' },
  'outcome-unknown': { status: 503, title: 'Service Unavailable' },
  'gateway-timeout': { status: 504, title: 'Gateway Timeout' },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

/** An HTTP-level failure (authentication, content type, ...) raised by the plumbing rather than the domain. */
export class HttpProblem extends Error {
  override name = 'HttpProblem';
  constructor(
    readonly code: ProblemCode,
    message: string,
    readonly extensions: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** `instance` is the request's path; left out when it is not known (a request the HTTP parser could not read). */
export function problemDocument(
  problemBase: string,
  code: ProblemCode,
  detail: string,
  instance: string | undefined,
  extensions: Record<string, unknown> = {},
): object {
  const { status, title } = PROBLEMS[code];
  return new ProblemDocument({ type: `${problemBase}/${code}`, title, status, detail, instance }, extensions as Record<string, object>);
}

export function sendProblem(req: Request, res: Response, code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}): void {
  const problemBase = (req.app.locals as { problemBase: string }).problemBase;
  const instance = req.originalUrl.split('?')[0] ?? req.originalUrl;
  res
    .status(PROBLEMS[code].status)
    .type('application/problem+json')
    .send(JSON.stringify(problemDocument(problemBase, code, detail, instance, { ...extensions, requestId: String(req.id) })));
}
