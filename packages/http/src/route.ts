// Mounts one Operation as one handler in the app's operation table: authentication, scope and role (401/403), the
// key's rate limit (429), path (400), query and body (422) validation and, for operations that accept Idempotency-Key,
// reading the key; then the handler, a thin call into one use case, which owns the key's replay protocol. One handler
// rather than a middleware chain: every layer costs each request a dispatch, a closure and a promise, which showed in
// the partner API's latency under load.
import { isUtf8 } from 'node:buffer';
import { hash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { compileValidator, type Operation } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import type { Pool } from '@backbone/db';
import { hashRequest, type IdempotencyRequest } from '@backbone/use-cases';
import { assertSameOrigin, authorize, authorizeOperator, idempotencyCallerOf, type AuthContext, type KeyVerifier, type SessionVerifier } from './auth.js';
import type { OperationRoutes } from './operation-routes.js';
import { HttpProblem } from './problems.js';
import type { KeyRateLimiter } from './rate-limits.js';

// While TypeScript infers Op it also tries the wide JSONSchema; FromSchema of that never ends (TS2589), so it is
// answered with unknown and only a concrete schema is turned into a type.
type InputOf<S> = S extends JSONSchema ? (JSONSchema extends S ? unknown : FromSchema<S>) : undefined;

export interface HandlerContext<Op extends Operation> {
  params: InputOf<Op['params']>;
  query: InputOf<Op['query']>;
  body: InputOf<Op['body']>;
  /** Who called; null for an operation that asks no authentication (signing in, the public shop). */
  auth: Op['auth'] extends 'none' | 'public' ? null : AuthContext;
  /**
   * The Idempotency-Key header with who sent it, the request as sent (method and concrete path) and a hash of the body,
   * for the use case's idempotency module; null when the operation takes no key or none was sent.
   */
  idempotency: IdempotencyRequest | null;
  req: Request;
  res: Response;
}

export interface HandlerResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Handler<Op extends Operation> = (ctx: HandlerContext<Op>) => Promise<HandlerResult>;

export interface RouteDeps {
  pool: Pool;
  keyVerifier: KeyVerifier;
  /** The operator console's sessions, for operations with `auth: 'session-or-key'`. */
  sessionVerifier?: SessionVerifier;
  /** Per-key rate limits on every key-authenticated request (not sessions); absent: no limits. */
  rateLimiter?: KeyRateLimiter | undefined;
  bodyLimit: string;
}

export interface MountOptions {
  /** Give 200 answers a strong ETag of their bytes and answer a matching If-None-Match with 304 (conditional GET). */
  etag?: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const JSON_TYPES = ['application/json', 'application/*+json'];

export function mountOperation<Op extends Operation>(routes: OperationRoutes, deps: RouteDeps, op: Op, handler: Handler<Op>, options: MountOptions = {}): void {
  const validateParams = op.params ? compileValidator(op.params as object, 'params') : null;
  const validateQuery = op.query ? compileValidator(op.query as object, 'query') : null;
  const validateBody = op.body ? compileValidator(op.body as object, 'body') : null;
  const method = op.method.toUpperCase();
  const parseJson = express.json({ limit: deps.bodyLimit, type: JSON_TYPES, strict: false, verify: refuseInvalidUtf8 });
  const readJsonBody = (req: Request, res: Response) =>
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- body-parser's http-errors Error, passed on unchanged
    new Promise<void>((resolve, reject) => parseJson(req, res, (error?: unknown) => (error ? reject(error) : resolve())));

  const authenticate = authenticatorOf(op, deps);

  routes.add(
    op.method,
    op.path,
    async (req: Request, res: Response) => {
      const auth = await authenticate(req);
      // After authentication (an unknown key spends no one's budget) and before anything else is read.
      if (deps.rateLimiter && auth?.keyId) await deps.rateLimiter.admit(auth.keyId, auth, res);
      if (validateParams) {
        const errors = validateParams(req.params);
        if (errors.length > 0) throw new HttpProblem('invalid-request', errors.map((e) => e.message).join(' '), { errors });
      }
      // Express 5 parses req.query again on every read; the validated (coerced) copy is what handlers get.
      let query: unknown;
      if (validateQuery) {
        query = { ...(req.query as Record<string, unknown>) };
        const errors = validateQuery(query);
        if (errors.length > 0) {
          if (op.queryErrorStatus === 400) throw new HttpProblem('invalid-request', errors.map((e) => e.message).join(' '), { errors });
          throw new ValidationError(errors);
        }
      }
      if (validateBody) {
        const kind = req.is(JSON_TYPES);
        // req.is answers null when the request has no body at all; most clients (fetch, axios) send an empty POST with
        // Content-Length: 0 and no Content-Type, which is no body either. An optional body left out reads as {}.
        const noBody =
          kind === null ||
          (req.headers['content-length'] === '0' && req.headers['content-type'] === undefined && req.headers['transfer-encoding'] === undefined);
        if (noBody && op.bodyOptional) req.body = {};
        else if (!kind) throw new HttpProblem('unsupported-media-type', 'The request body must be JSON, sent with Content-Type: application/json.');
        else await readJsonBody(req, res);
        const errors = validateBody(req.body);
        if (errors.length > 0) throw new ValidationError(errors);
      }
      const idempotencyKey = op.idempotent ? readIdempotencyKey(req) : null;
      const result = await handler({
        params: req.params as InputOf<Op['params']>,
        query: query as InputOf<Op['query']>,
        body: req.body as InputOf<Op['body']>,
        auth: auth as HandlerContext<Op>['auth'],
        idempotency:
          idempotencyKey && auth
            ? { caller: idempotencyCallerOf(auth), operation: `${method} ${concretePath(req)}`, key: idempotencyKey, requestHash: hashRequest(req.body) }
            : null,
        req,
        res,
      });
      // A handler that streams its answer itself (a CSV export) has already sent it.
      if (res.headersSent) return;
      if (result.headers) for (const name in result.headers) res.setHeader(name, result.headers[name]!);
      if (result.body === undefined) {
        res.statusCode = result.status;
        res.end();
        return;
      }
      const answer = { status: result.status, text: JSON.stringify(result.body) };
      if (options.etag && answer.status === 200) {
        // A strong validator of exactly the bytes a 200 carries; a matching If-None-Match gets 304 and no body.
        const etag = `"${hash('sha256', answer.text, 'base64url')}"`;
        res.setHeader('ETag', etag);
        if (ifNoneMatchMatches(req.headers['if-none-match'], etag)) {
          res.statusCode = 304;
          res.end();
          return;
        }
      }
      sendJson(res, answer.status, answer.text);
    },
    op.operationId,
  );
}

/**
 * Who may call, checked first, before the path, query or body is read: a refused caller changes nothing and learns
 * nothing from validation errors. An operator operation admits the roles it declares (its row of the permission table).
 */
function authenticatorOf(op: Operation, deps: RouteDeps): (req: Request) => Promise<AuthContext | null> {
  if (op.auth === 'session-or-key') {
    const roles = op.roles;
    const beforePasswordChange = op.beforePasswordChange === true;
    return (req) => authorizeOperator(req, deps, roles, beforePasswordChange);
  }
  if (op.auth === 'none') {
    return async (req) => {
      assertSameOrigin(req);
      return null;
    };
  }
  // A booking page's API is anyone's, from any origin (a page embedded in the operator's site); its limits are the
  // shop's own, per client address, which the handler spends.
  if (op.auth === 'public') return () => Promise.resolve(null);
  const scope = op.scope;
  return (req) => authorize(req, deps.keyVerifier, scope);
}

/**
 * The body parser decodes invalid UTF-8 as U+FFFD, which would then be stored as if the client had sent it: such a body
 * is malformed JSON (RFC 8259 requires UTF-8). isUtf8 is simdutf's validation, a small cost next to JSON.parse.
 */
function refuseInvalidUtf8(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding === 'utf-8' && !isUtf8(body)) throw new HttpProblem('malformed-json', 'The request body is not valid UTF-8.');
}

/** RFC 9110 If-None-Match: `*` or any listed tag equal to ours under weak comparison (W/ ignored). */
function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Writes an already serialised JSON answer with Node's own response methods: Express's res.send would look for an
 * ETag setting, freshness and the charset again on every answer. Node leaves the body out of HEAD answers itself.
 */
function sendJson(res: Response, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

function readIdempotencyKey(req: Request): string | null {
  const value = req.headers['idempotency-key'];
  if (value === undefined) return null;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw new HttpProblem('invalid-request', 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  }
  return value;
}

/** The path as the client sent it, without the query: the resource an idempotent write acts on. */
function concretePath(req: Request): string {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The header a replayed answer carries. */
export function replayHeaders(replayed: boolean): Record<string, string> | undefined {
  return replayed ? { 'Idempotent-Replayed': 'true' } : undefined;
}
