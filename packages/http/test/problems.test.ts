// The one registry of problem kinds: each code's status, title and type URI, the problem document built from it, and
// every code the domain throws having an entry (a code without one would crash the error handler into a 500).
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import type { DomainErrorCode } from '@backbone/domain';
import { HttpProblem, PROBLEMS, problemDocument, sendProblem, type ProblemCode } from '../src/problems.js';

const BASE = 'https://problems.example.com';

// Fails the typecheck when the domain gains an error code the registry does not have.
const domainCodesHaveProblems: [Exclude<DomainErrorCode, ProblemCode>] extends [never] ? true : false = true;

/** Every DomainErrorCode, listed here so the registry can be checked at run time too (the typecheck keeps it complete). */
const DOMAIN_CODES = {
  validation: true,
  'not-found': true,
  'insufficient-capacity': true,
  'timeslot-unavailable': true,
  'invalid-transition': true,
  'hold-expired': true,
  'cancellation-window-closed': true,
  'change-window-closed': true,
  'capacity-below-booked': true,
  'webhook-endpoint-limit': true,
  'invalid-request': true,
  'unsupported-media-type': true,
  'payload-too-large': true,
  'file-quota-exceeded': true,
  'uploads-in-progress': true,
  'file-in-use': true,
  'last-owner': true,
  'too-many-holds': true,
  'slug-taken': true,
  'places-available': true,
  'link-not-valid': true,
  forbidden: true,
} as const satisfies Record<DomainErrorCode, true>;

const json = (document: object) => JSON.parse(JSON.stringify(document)) as Record<string, unknown>;

describe('PROBLEMS', () => {
  it('has an entry for every code the domain throws', () => {
    expect(domainCodesHaveProblems).toBe(true);
    for (const code of Object.keys(DOMAIN_CODES)) expect(PROBLEMS, code).toHaveProperty(code);
  });

  it("gives each code the status a client acts on, and that status's reason phrase as its title", () => {
    const expected: Partial<Record<ProblemCode, number>> = {
      'invalid-request': 400,
      'malformed-json': 400,
      unauthorized: 401,
      forbidden: 403,
      'not-found': 404,
      'method-not-allowed': 405,
      'insufficient-capacity': 409,
      'timeslot-unavailable': 409,
      'hold-expired': 409,
      'cancellation-window-closed': 409,
      'change-window-closed': 409,
      'idempotency-in-progress': 409,
      'payload-too-large': 413,
      'unsupported-media-type': 415,
      validation: 422,
      'idempotency-conflict': 422,
      'rate-limited': 429,
      internal: 500,
      unavailable: 503,
      'outcome-unknown': 503,
    };
    for (const [code, status] of Object.entries(expected)) expect(PROBLEMS[code as ProblemCode].status, code).toBe(status);
    const titles = new Map<number, string>();
    for (const [code, { status, title }] of Object.entries(PROBLEMS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      // One title per status: the title is the status's, the code says the rest.
      expect(titles.get(status) ?? title, code).toBe(title);
      titles.set(status, title);
    }
    expect(titles.get(409)).toBe('Conflict');
    expect(titles.get(422)).toBe('Unprocessable Entity');
  });
});

describe('problemDocument', () => {
  it('types each problem under the base by its code, with the status and title of the registry', () => {
    for (const code of Object.keys(PROBLEMS) as ProblemCode[]) {
      const document = json(problemDocument(BASE, code, 'Something.', '/api/v2/thing'));
      expect(document).toEqual({
        type: `${BASE}/${code}`,
        title: PROBLEMS[code].title,
        status: PROBLEMS[code].status,
        detail: 'Something.',
        instance: '/api/v2/thing',
      });
    }
  });

  it('adds the extensions as members, and leaves instance out when it is not known', () => {
    const document = json(problemDocument(BASE, 'insufficient-capacity', 'Not enough places.', undefined, { Available: 2, requestId: 'r-1' }));
    expect(document).toEqual({
      type: `${BASE}/insufficient-capacity`,
      title: 'Conflict',
      status: 409,
      detail: 'Not enough places.',
      Available: 2,
      requestId: 'r-1',
    });
  });
});

describe('HttpProblem', () => {
  it('carries its code, message, extensions and headers (none unless given)', () => {
    const plain = new HttpProblem('forbidden', 'No.');
    expect(plain).toBeInstanceOf(Error);
    expect(plain).toMatchObject({ name: 'HttpProblem', code: 'forbidden', message: 'No.', extensions: {}, headers: {} });
    expect(new HttpProblem('rate-limited', 'Wait.', { a: 1 }, { 'Retry-After': '3' })).toMatchObject({ extensions: { a: 1 }, headers: { 'Retry-After': '3' } });
  });
});

describe('sendProblem', () => {
  it('answers application/problem+json with the status, the path as instance (no query) and the request id', () => {
    const sent: { status?: number; type?: string; body?: string } = {};
    const res = {
      status(code: number) {
        sent.status = code;
        return this;
      },
      type(type: string) {
        sent.type = type;
        return this;
      },
      send(body: string) {
        sent.body = body;
        return this;
      },
    };
    const req = { app: { locals: { problemBase: BASE } }, originalUrl: '/api/v2/bookings/ABCD?secret=1', id: 'req-7' };
    sendProblem(req as unknown as Request, res as unknown as Response, 'hold-expired', 'Expired.', { Status: 'expired' });
    expect(sent.status).toBe(409);
    expect(sent.type).toBe('application/problem+json');
    expect(JSON.parse(sent.body!)).toEqual({
      type: `${BASE}/hold-expired`,
      title: 'Conflict',
      status: 409,
      detail: 'Expired.',
      instance: '/api/v2/bookings/ABCD',
      Status: 'expired',
      requestId: 'req-7',
    });
  });
});
