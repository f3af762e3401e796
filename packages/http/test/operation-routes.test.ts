// The operations' routing table, with Express's matching rules: case-sensitive paths, an optional trailing slash,
// non-empty percent-decoded `:name` segments, HEAD answered by GET, OPTIONS answered with the methods a path takes, and
// anything else passed on to the next layer (the not-found problem).
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { createOperationRoutes } from '../src/operation-routes.js';
import { HttpProblem } from '../src/problems.js';

interface Dispatch {
  handled: Array<{ operationId: string; params: Record<string, string> }>;
  next: unknown[][];
  res: { statusCode: number; headers: Record<string, string>; ended: boolean };
}

function routes() {
  const table = createOperationRoutes();
  const handled: Dispatch['handled'] = [];
  const handler = (operationId: string) => async (req: Request) => {
    handled.push({ operationId, params: req.params as Record<string, string> });
  };
  table.add('get', '/api/v2/bookings/:Reference', handler('getBooking'), 'getBooking');
  table.add('delete', '/api/v2/bookings/:Reference', handler('deleteBooking'), 'deleteBooking');
  table.add('post', '/api/v2/bookings/:Reference/cancel', handler('cancelBooking'), 'cancelBooking');
  table.add('get', '/api/v2/activities/:ActivityID/timeslots/:Date', handler('listTimeslots'), 'listTimeslots');
  table.add('post', '/api/v2/uploads', handler('upload'), 'upload');
  table.add('get', '/openapi.json', handler('document'), 'document');

  /** Sends one request through the middleware and waits for its handler to have run. */
  async function dispatch(method: string, url: string): Promise<Dispatch & { req: Request }> {
    const next: unknown[][] = [];
    const res = { statusCode: 200, headers: {} as Record<string, string>, ended: false };
    const fakeRes = {
      setHeader: (name: string, value: string) => {
        res.headers[name] = value;
      },
      end: () => {
        res.ended = true;
      },
      set statusCode(code: number) {
        res.statusCode = code;
      },
      get statusCode() {
        return res.statusCode;
      },
    };
    const req = { method, url } as Request;
    const before = handled.length;
    table.middleware(req, fakeRes as unknown as Response, (...args: unknown[]) => next.push(args));
    await new Promise((resolve) => setImmediate(resolve));
    return { handled: handled.slice(before), next, res, req };
  }
  return { table, dispatch };
}

describe('createOperationRoutes: matching', () => {
  it('takes the operation whose method and path match, with its parameters and operationId', async () => {
    const { dispatch } = routes();
    const result = await dispatch('GET', '/api/v2/activities/a1/timeslots/2026-06-10');
    expect(result.handled).toEqual([{ operationId: 'listTimeslots', params: { ActivityID: 'a1', Date: '2026-06-10' } }]);
    expect(result.req.operationId).toBe('listTimeslots');
    expect(result.next).toEqual([]);
  });

  it('percent-decodes parameters, an encoded slash included, and reads no query string into the path', async () => {
    const { dispatch } = routes();
    expect((await dispatch('GET', '/api/v2/bookings/AB%20CD%2F1?x=1')).handled).toEqual([{ operationId: 'getBooking', params: { Reference: 'AB CD/1' } }]);
    expect((await dispatch('GET', '/api/v2/bookings/%C3%A9')).handled[0]!.params).toEqual({ Reference: 'é' });
  });

  it('takes one trailing slash, not two, and no empty parameter', async () => {
    const { dispatch } = routes();
    expect((await dispatch('POST', '/api/v2/bookings/ABCD/cancel/')).handled).toHaveLength(1);
    expect((await dispatch('POST', '/api/v2/bookings/ABCD/cancel//')).handled).toEqual([]);
    const empty = await dispatch('GET', '/api/v2/bookings/');
    expect(empty.handled).toEqual([]);
    expect(empty.next).toEqual([[]]);
  });

  it('matches paths case-sensitively and literally (a dot is a dot)', async () => {
    const { dispatch } = routes();
    expect((await dispatch('GET', '/API/v2/bookings/ABCD')).next).toEqual([[]]);
    expect((await dispatch('GET', '/openapi.json')).handled).toHaveLength(1);
    expect((await dispatch('GET', '/openapiXjson')).handled).toEqual([]);
  });

  it('answers HEAD with the GET operation', async () => {
    const { dispatch } = routes();
    expect((await dispatch('HEAD', '/api/v2/bookings/ABCD')).handled).toEqual([{ operationId: 'getBooking', params: { Reference: 'ABCD' } }]);
  });

  it('passes a known path with another method on, untouched (the app answers it as not found)', async () => {
    const { dispatch } = routes();
    const result = await dispatch('PATCH', '/api/v2/bookings/ABCD');
    expect(result.handled).toEqual([]);
    expect(result.next).toEqual([[]]);
    expect(result.res.ended).toBe(false);
  });

  it('passes a parameter that is not valid percent-encoding on as a 400 problem, without calling the operation', async () => {
    const { dispatch } = routes();
    for (const url of ['/api/v2/bookings/%E0%A4%A', '/api/v2/bookings/%ZZ', '/api/v2/bookings/%']) {
      const result = await dispatch('GET', url);
      expect(result.handled, url).toEqual([]);
      expect(result.next).toHaveLength(1);
      const [error] = result.next[0]!;
      expect(error).toBeInstanceOf(HttpProblem);
      expect((error as HttpProblem).code).toBe('invalid-request');
    }
  });

  it("passes a handler's failure to the error handler", async () => {
    const table = createOperationRoutes();
    const failure = new Error('boom');
    table.add('get', '/fails', () => Promise.reject(failure), 'fails');
    const next: unknown[] = [];
    table.middleware({ method: 'GET', url: '/fails' } as Request, {} as Response, (error?: unknown) => next.push(error));
    await new Promise((resolve) => setImmediate(resolve));
    expect(next).toEqual([failure]);
  });
});

describe('createOperationRoutes: OPTIONS', () => {
  it('answers 204 with Allow listing the methods of the path, and HEAD with GET', async () => {
    const { dispatch } = routes();
    const both = await dispatch('OPTIONS', '/api/v2/bookings/ABCD');
    expect(both.res).toEqual({ statusCode: 204, headers: { Allow: 'GET, DELETE, HEAD' }, ended: true });
    expect(both.next).toEqual([]);
    const postOnly = await dispatch('OPTIONS', '/api/v2/uploads/');
    expect(postOnly.res.headers).toEqual({ Allow: 'POST' });
  });

  it('passes OPTIONS of a path no operation has on', async () => {
    const { dispatch } = routes();
    const result = await dispatch('OPTIONS', '/api/v2/unknown');
    expect(result.next).toEqual([[]]);
    expect(result.res.ended).toBe(false);
  });
});

describe('createOperationRoutes: adding', () => {
  it('refuses a method and path added twice, whatever the parameter is called', () => {
    const { table } = routes();
    const noop = async () => undefined;
    expect(() => table.add('get', '/api/v2/bookings/:Reference', noop, 'again')).toThrow('GET /api/v2/bookings/:Reference is added twice');
    expect(() => table.add('get', '/api/v2/bookings/:Other', noop, 'again')).toThrow('is added twice');
    expect(() => table.add('patch', '/api/v2/bookings/:Reference', noop, 'patchBooking')).not.toThrow();
  });

  it('refuses segments Express would read otherwise (optional parameters, wildcards)', () => {
    const table = createOperationRoutes();
    const noop = async () => undefined;
    expect(() => table.add('get', '/files/:name?', noop, 'x')).toThrow("unsupported path segment ':name?'");
    expect(() => table.add('get', '/files/*', noop, 'x')).toThrow("unsupported path segment '*'");
    expect(() => table.add('get', '/files/a:b', noop, 'x')).toThrow("unsupported path segment 'a:b'");
  });
});
