// Mounts one Operation as one handler in the app's operation table: authentication and scope (401/403), path (400),
// query and body (422) validation and, for operations that accept Idempotency-Key, the claim/replay protocol; then
// the handler, a thin call into the domain. One handler rather than a middleware chain: every layer costs each
// request a dispatch, a closure and a promise, which showed in the partner API's latency under load.
import { hash } from 'node:crypto';
import express, { type Request, type Response } from 'express';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import { compileValidator, type Operation } from '@backbone/contracts';
import { ValidationError } from '@backbone/domain';
import { claimIdempotencyKey, completeIdempotencyKey, releaseIdempotencyKey, type Db, type IdempotencyScope, type Pool } from '@backbone/db';
import { authorize, type AuthContext, type KeyVerifier } from './auth.js';
import type { OperationRoutes } from './operation-routes.js';
import { HttpProblem } from './problems.js';

// While TypeScript infers Op it also tries the wide JSONSchema; FromSchema of that never ends (TS2589), so it is
// answered with unknown and only a concrete schema is turned into a type.
type InputOf<S> = S extends JSONSchema ? (JSONSchema extends S ? unknown : FromSchema<S>) : undefined;

export interface HandlerContext<Op extends Operation> {
  params: InputOf<Op['params']>;
  query: InputOf<Op['query']>;
  body: InputOf<Op['body']>;
  auth: AuthContext;
  /** The Idempotency-Key header, when the operation takes one and the caller sent it. */
  idempotencyKey: string | null;
  req: Request;
  res: Response;
  /**
   * Serialises the answer once and, when the request carries an Idempotency-Key, stores it through `db`:
   * pass the transaction doing the work, so the stored answer commits with it.
   */
  recordResponse: (db: Db, result: HandlerResult) => Promise<void>;
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
  bodyLimit: string;
}

export interface MountOptions {
  /** Store and replay whole answers (default for idempotent operations); false when the handler dedupes by itself. */
  storeIdempotentResponses?: boolean;
  /** Give 200 answers a strong ETag of their bytes and answer a matching If-None-Match with 304 (conditional GET). */
  etag?: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const JSON_TYPES = ['application/json', 'application/*+json'];

export function mountOperation<Op extends Operation>(routes: OperationRoutes, deps: RouteDeps, op: Op, handler: Handler<Op>, options: MountOptions = {}): void {
  const validateParams = op.params ? compileValidator(op.params as object, 'params') : null;
  const validateQuery = op.query ? compileValidator(op.query as object, 'query') : null;
  const validateBody = op.body ? compileValidator(op.body as object, 'body') : null;
  const storeResponses = op.idempotent === true && options.storeIdempotentResponses !== false;
  const operationName = `${op.method.toUpperCase()} ${op.path}`;
  const parseJson = express.json({ limit: deps.bodyLimit, type: JSON_TYPES, strict: false });
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- body-parser's http-errors Error, passed on unchanged
  const readJsonBody = (req: Request, res: Response) => new Promise<void>((resolve, reject) => parseJson(req, res, (error?: unknown) => (error ? reject(error) : resolve())));

  routes.add(op.method, op.path, async (req: Request, res: Response) => {
    const auth = await authorize(req, deps.keyVerifier, op.scope);
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
      if (!req.is(JSON_TYPES)) throw new HttpProblem('unsupported-media-type', 'The request body must be JSON, sent with Content-Type: application/json.');
      await readJsonBody(req, res);
      const errors = validateBody(req.body);
      if (errors.length > 0) throw new ValidationError(errors);
    }
    const idempotencyKey = op.idempotent ? readIdempotencyKey(req) : null;
    const scope: IdempotencyScope | null =
      storeResponses && idempotencyKey
        ? { accountId: auth.accountId, operation: operationName, key: idempotencyKey, requestHash: hashRequest(req.body) }
        : null;

    if (scope) {
      const claim = await claimIdempotencyKey(deps.pool, scope);
      if (claim.outcome === 'replay') {
        res.setHeader('Idempotent-Replayed', 'true');
        sendJson(res, claim.status, claim.body);
        return;
      }
      if (claim.outcome === 'mismatch') {
        throw new HttpProblem('idempotency-conflict', 'This Idempotency-Key was already used with a different request body.');
      }
      if (claim.outcome === 'in-progress') {
        throw new HttpProblem('idempotency-in-progress', 'A request with this Idempotency-Key is still being processed; retry later.');
      }
    }

    let recorded: { status: number; text: string; headers: Record<string, string> | undefined } | null = null;
    const ctx: HandlerContext<Op> = {
      params: req.params as InputOf<Op['params']>,
      query: query as InputOf<Op['query']>,
      body: req.body as InputOf<Op['body']>,
      auth,
      idempotencyKey,
      req,
      res,
      async recordResponse(db, result) {
        const text = JSON.stringify(result.body);
        if (scope) await completeIdempotencyKey(db, scope, result.status, text);
        recorded = { status: result.status, text, headers: result.headers };
      },
    };

    try {
      const result = await handler(ctx);
      if (!recorded) await ctx.recordResponse(deps.pool, result);
    } catch (error) {
      // Only answers that did their work are kept; after a failure the same key may be retried.
      if (scope) await releaseIdempotencyKey(deps.pool, scope).catch(() => undefined);
      throw error;
    }
    const answer = recorded as unknown as { status: number; text: string; headers: Record<string, string> | undefined };
    if (answer.headers) for (const name in answer.headers) res.setHeader(name, answer.headers[name]!);
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
  });
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

/** Hash of the body with object keys sorted, so the same JSON sent with another member order is the same request. */
export function hashRequest(body: unknown): string {
  return hash('sha256', stableStringify(body), 'hex');
}

function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
