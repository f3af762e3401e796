// The one error middleware: each kind of failure becomes its problem (status, type, headers, extensions), and an
// unexpected one a 500 that tells the client only the request id while the log gets the error.
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '@backbone/db';
import { DomainError, ValidationError } from '@backbone/domain';
import { IdempotencyError, SignInError, UnavailableError } from '@backbone/use-cases';
import { errorHandler, notFoundHandler, OUTCOME_UNKNOWN_DETAIL } from '../src/error-handler.js';
import { HttpProblem } from '../src/problems.js';

const BASE = 'https://problems.example.com';

interface Answer {
  status: number | undefined;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  destroyed: boolean;
  logged: Array<{ level: string; fields: Record<string, unknown>; message: string }>;
}

function handle(error: unknown, options: { headersSent?: boolean } = {}): Answer {
  const answer: Answer = { status: undefined, headers: {}, body: undefined, destroyed: false, logged: [] };
  const log = (level: string) => (fields: Record<string, unknown>, message: string) => answer.logged.push({ level, fields, message });
  const req = {
    app: { locals: { problemBase: BASE } },
    originalUrl: '/api/v2/things/1?x=y',
    method: 'POST',
    path: '/api/v2/things/1',
    id: 'req-1',
    log: { error: log('error'), warn: log('warn') },
  };
  const res = {
    headersSent: options.headersSent ?? false,
    set(name: string | Record<string, string>, value?: string) {
      if (typeof name === 'string') answer.headers[name] = value!;
      else Object.assign(answer.headers, name);
      return this;
    },
    status(code: number) {
      answer.status = code;
      return this;
    },
    type(type: string) {
      answer.headers['Content-Type'] = type;
      return this;
    },
    send(body: string) {
      answer.body = JSON.parse(body) as Record<string, unknown>;
      return this;
    },
    destroy() {
      answer.destroyed = true;
    },
  };
  errorHandler(error, req as unknown as Request, res as unknown as Response, (() => undefined) as NextFunction);
  return answer;
}

describe('errorHandler', () => {
  it('answers an HttpProblem with its code, headers and extensions', () => {
    const answer = handle(new HttpProblem('rate-limited', 'Slow down.', { Limit: 5 }, { 'Retry-After': '3' }));
    expect(answer.status).toBe(429);
    expect(answer.headers).toEqual({ 'Retry-After': '3', 'Content-Type': 'application/problem+json' });
    expect(answer.body).toEqual({
      type: `${BASE}/rate-limited`,
      title: 'Too Many Requests',
      status: 429,
      detail: 'Slow down.',
      instance: '/api/v2/things/1',
      Limit: 5,
      requestId: 'req-1',
    });
  });

  it('answers a ValidationError with 422 and its field errors', () => {
    const answer = handle(new ValidationError([{ field: 'Participants', message: 'Participants must be at most 6 for this activity.' }]));
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      type: `${BASE}/validation`,
      detail: 'Participants must be at most 6 for this activity.',
      errors: [{ field: 'Participants', message: 'Participants must be at most 6 for this activity.' }],
    });
  });

  it('answers a DomainError with the status of its code and its extensions; uploads in progress with Retry-After', () => {
    const full = handle(new DomainError('insufficient-capacity', 'Not enough places.', { Available: 1 }));
    expect(full.status).toBe(409);
    expect(full.body).toMatchObject({ type: `${BASE}/insufficient-capacity`, Available: 1 });
    expect(full.headers).not.toHaveProperty('Retry-After');
    const uploads = handle(new DomainError('uploads-in-progress', 'Too many uploads at once.'));
    expect(uploads.status).toBe(429);
    expect(uploads.headers['Retry-After']).toBe('5');
  });

  it("answers an Idempotency-Key's conflict with 422 and a request still running with 409", () => {
    expect(handle(new IdempotencyError('conflict'))).toMatchObject({ status: 422, body: { type: `${BASE}/idempotency-conflict` } });
    expect(handle(new IdempotencyError('in-progress'))).toMatchObject({ status: 409, body: { type: `${BASE}/idempotency-in-progress` } });
  });

  it('answers a refused sign-in with 401, and a throttled one with 429 and Retry-After', () => {
    expect(handle(new SignInError('invalid-credentials'))).toMatchObject({ status: 401, body: { type: `${BASE}/invalid-credentials` } });
    const throttled = handle(new SignInError('rate-limited', 30));
    expect(throttled.status).toBe(429);
    expect(throttled.headers['Retry-After']).toBe('30');
  });

  it('answers a dependency that did not take the work with 503 and Retry-After, logging what did not answer', () => {
    const cause = new Error('queue down');
    const answer = handle(new UnavailableError('The event queue did not answer; retry.', { cause }));
    expect(answer.status).toBe(503);
    expect(answer.headers['Retry-After']).toBe('2');
    expect(answer.body).toMatchObject({ type: `${BASE}/unavailable`, detail: 'The event queue did not answer; retry.' });
    expect(answer.logged).toEqual([{ level: 'warn', fields: { err: cause }, message: 'The event queue did not answer; retry.' }]);
  });

  it('answers a change whose outcome is unknown with 503 outcome-unknown, telling the client how to find out', () => {
    const answer = handle(new OutcomeUnknownError(new Error('Connection terminated unexpectedly')));
    expect(answer.status).toBe(503);
    expect(answer.headers['Retry-After']).toBe('2');
    expect(answer.body).toMatchObject({ type: `${BASE}/outcome-unknown`, detail: OUTCOME_UNKNOWN_DETAIL });
  });

  it('answers a database that cannot be reached with 503 unavailable and Retry-After', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const answer = handle(refused);
    expect(answer.status).toBe(503);
    expect(answer.headers['Retry-After']).toBe('2');
    expect(answer.body).toMatchObject({ type: `${BASE}/unavailable` });
    expect(answer.body!.detail).toMatch(/^The database is unavailable at the moment; retry in 2 seconds/);
  });

  it("answers the body parser's failures as the client's", () => {
    const parser = (type: string, status: number) => Object.assign(new Error(type), { type, status, expose: true });
    expect(handle(parser('entity.parse.failed', 400))).toMatchObject({ status: 400, body: { type: `${BASE}/malformed-json` } });
    expect(handle(parser('entity.too.large', 413))).toMatchObject({ status: 413, body: { type: `${BASE}/payload-too-large` } });
    expect(handle(parser('encoding.unsupported', 415))).toMatchObject({ status: 415, body: { type: `${BASE}/unsupported-media-type` } });
    expect(handle(parser('charset.unsupported', 415))).toMatchObject({ status: 415, body: { type: `${BASE}/unsupported-media-type` } });
    expect(handle(parser('request.aborted', 400))).toMatchObject({ status: 400, body: { type: `${BASE}/invalid-request` } });
  });

  it("answers a path the router cannot decode (a URIError with status 400) and any exposed 4xx as the client's", () => {
    expect(handle(Object.assign(new URIError('URI malformed'), { status: 400 }))).toMatchObject({ status: 400, body: { type: `${BASE}/invalid-request` } });
    expect(handle(Object.assign(new Error('Bad'), { status: 400, expose: true }))).toMatchObject({ status: 400 });
  });

  it('answers anything else with a 500 that names only the request id, and logs the error', () => {
    const error = Object.assign(new Error('password=hunter2 in a stack'), { status: 500, expose: false });
    const answer = handle(error);
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({ type: `${BASE}/internal`, detail: 'An unexpected error occurred. Quote request id req-1 when reporting it.' });
    expect(JSON.stringify(answer.body)).not.toContain('hunter2');
    expect(answer.logged).toEqual([{ level: 'error', fields: { err: error }, message: 'unhandled error' }]);
    // A 4xx the library did not mean to expose is not the client's either.
    expect(handle(Object.assign(new Error('x'), { status: 404 })).status).toBe(500);
  });

  it('ends the connection of an answer already under way, logging the error', () => {
    const error = new Error('after the headers');
    const answer = handle(error, { headersSent: true });
    expect(answer.destroyed).toBe(true);
    expect(answer.status).toBeUndefined();
    expect(answer.logged).toEqual([{ level: 'error', fields: { err: error }, message: 'error after the response was sent' }]);
  });
});

describe('notFoundHandler', () => {
  it('names the method and path no route took', () => {
    let body: Record<string, unknown> | undefined;
    let status: number | undefined;
    const res = {
      status(code: number) {
        status = code;
        return this;
      },
      type() {
        return this;
      },
      send(text: string) {
        body = JSON.parse(text) as Record<string, unknown>;
        return this;
      },
    };
    const req = { app: { locals: { problemBase: BASE } }, originalUrl: '/nowhere?q=1', method: 'GET', path: '/nowhere', id: 'req-2' };
    notFoundHandler(req as unknown as Request, res as unknown as Response);
    expect(status).toBe(404);
    expect(body).toMatchObject({ type: `${BASE}/not-found`, detail: 'No route for GET /nowhere.', instance: '/nowhere', requestId: 'req-2' });
  });
});
