// The OpenAPI document assembled from the operation objects: every operation at its path, its parameters, body and
// answers, the answers every operation may give (401, 403, 429, 503), and OCTO's errors in its own JSON form.
import { describe, expect, it } from 'vitest';
import {
  ALL_OPERATIONS,
  cancelOperatorBookingOperation,
  createBookingOperation,
  createOperatorKeyOperation,
  getOctoBookingOperation,
  listOperatorBookingsOperation,
  OPENAPI_INFO,
  signInOperation,
  syncBookingsOperation,
  uploadFileOperation,
  type Operation,
} from '@backbone/contracts';
import { buildApiDocument, buildOpenApiDocument } from '../src/openapi.js';

interface DocumentOperation {
  operationId: string;
  security: unknown[];
  parameters?: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description?: string; $ref?: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }>;
}

const document = buildApiDocument();
const paths = document.paths as Record<string, Record<string, DocumentOperation>>;
const find = (op: Operation): DocumentOperation => paths[op.path.replace(/:([A-Za-z]+)/g, '{$1}')]![op.method]!;

describe('buildApiDocument', () => {
  it('is OpenAPI 3.1 with the one info, and has every operation at its path and method, and nothing else', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toBe(OPENAPI_INFO);
    const listed = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => `${method} ${path} ${op.operationId}`));
    const expected = ALL_OPERATIONS.map((op) => `${op.method} ${op.path.replace(/:([A-Za-z]+)/g, '{$1}')} ${op.operationId}`);
    expect(listed.sort()).toEqual(expected.sort());
  });

  it('gives every operation the answers any request may get: 401, 403 and 503 (a public one: 503 and 429, never 401 or 403)', () => {
    for (const op of ALL_OPERATIONS as readonly Operation[]) {
      const { responses } = find(op);
      expect(responses, op.operationId).toHaveProperty('503');
      if (op.auth === 'public') {
        expect(responses, op.operationId).toHaveProperty('429');
        expect(responses, op.operationId).not.toHaveProperty('401');
        expect(find(op).security, op.operationId).toEqual([]);
        continue;
      }
      expect(responses, op.operationId).toHaveProperty('401');
      expect(responses, op.operationId).toHaveProperty('403');
      expect(responses, op.operationId).toHaveProperty('503');
    }
    // Unless the operation says more about it, the 503 is the shared one.
    expect(find(createBookingOperation).responses['503']).toEqual({ $ref: '#/components/responses/Unavailable' });
  });

  it("gives answers to a key the rate-limit fields and the key's 429, and the sign-in (no key) neither", () => {
    const booking = find(createBookingOperation);
    expect(booking.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    expect(booking.responses['201']!.headers).toMatchObject({ RateLimit: { $ref: '#/components/headers/RateLimit' } });
    expect(booking.security).toEqual([{ bearerAuth: ['ota'] }]);
    const signIn = find(signInOperation);
    expect(signIn.security).toEqual([]);
    // The sign-in's 429 is its own throttle's, not a key's quota.
    expect(signIn.responses['429']).not.toEqual({ $ref: '#/components/responses/RateLimited' });
    for (const response of Object.values(signIn.responses)) expect(response.headers ?? {}).not.toHaveProperty('RateLimit');
  });

  it('lets operator operations be called with a session or an admin key, and says who may get a 403', () => {
    const keys = find(createOperatorKeyOperation);
    expect(keys.security).toEqual([{ bearerAuth: ['admin'] }, { sessionCookie: [] }]);
    expect(keys.responses['403']!.description).toContain('a staff user: this operation is for owners');
    expect(find(listOperatorBookingsOperation).responses['403']!.description).not.toContain('staff user');
  });

  it('lists path parameters as required, and query parameters as their schema says', () => {
    const sync = find(syncBookingsOperation);
    expect(sync.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ['UpdatedSince', 'query', false],
      ['Limit', 'query', false],
      ['Cursor', 'query', false],
    ]);
    const octo = find(getOctoBookingOperation);
    expect(octo.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([['uuid', 'path', true]]);
  });

  it('adds the Idempotency-Key header to operations that take it', () => {
    const headerOf = (op: Operation) => find(op).parameters?.find((p) => p.name === 'Idempotency-Key');
    expect(headerOf(createBookingOperation)).toMatchObject({ in: 'header', required: false });
    expect(headerOf(cancelOperatorBookingOperation)).toBeDefined();
    expect(headerOf(syncBookingsOperation)).toBeUndefined();
  });

  it('describes a file upload by its media types and its required Content-Length, and JSON bodies by their schema', () => {
    const upload = find(uploadFileOperation);
    expect(Object.keys(upload.requestBody!.content).sort()).toEqual([...uploadFileOperation.rawBody.contentTypes].sort());
    expect(upload.parameters?.find((p) => p.name === 'Content-Length')).toMatchObject({ in: 'header', required: true });
    expect(find(createBookingOperation).requestBody!.content).toEqual({ 'application/json': { schema: createBookingOperation.body } });
  });

  it("answers OCTO's errors as its own JSON, everyone else's as problems", () => {
    const octoErrors = Object.entries(find(getOctoBookingOperation).responses).filter(([status, r]) => Number(status) >= 400 && r.content);
    expect(octoErrors.length).toBeGreaterThan(0);
    const declared = octoErrors.filter(([status]) => status in getOctoBookingOperation.responses);
    for (const [, response] of declared) expect(Object.keys(response.content!)).toEqual(['application/json']);
    expect(Object.keys(find(createBookingOperation).responses['409']!.content!)).toEqual(['application/problem+json']);
  });
});

describe('buildOpenApiDocument', () => {
  it("keeps an operation's own 401, 403 and 503, and writes :Name segments as {Name}", () => {
    const op = {
      operationId: 'probe',
      method: 'get',
      path: '/api/v2/things/:ThingID/parts/:PartID',
      summary: 'A probe',
      tags: ['Test'],
      scope: 'ota',
      params: {
        type: 'object',
        required: ['ThingID', 'PartID'],
        properties: { ThingID: { type: 'string', description: 'The thing.' }, PartID: { type: 'string' } },
      },
      responses: {
        200: { description: 'The part.', schema: { type: 'object' } },
        401: { description: 'Own 401.' },
        403: { description: 'Own 403.' },
        503: { description: 'Own 503.' },
      },
    } as const satisfies Operation;
    const built = buildOpenApiDocument([op], { title: 't', version: '1', description: 'd' });
    const probe = (built.paths as Record<string, Record<string, DocumentOperation>>)['/api/v2/things/{ThingID}/parts/{PartID}']!.get!;
    expect(probe.parameters).toEqual([
      { name: 'ThingID', in: 'path', required: true, schema: { type: 'string', description: 'The thing.' }, description: 'The thing.' },
      { name: 'PartID', in: 'path', required: true, schema: { type: 'string' } },
    ]);
    expect(probe.responses['401']!.description).toBe('Own 401.');
    expect(probe.responses['403']!.description).toBe('Own 403.');
    expect(probe.responses['503']!.description).toBe('Own 503.');
    expect(probe.responses['401']!.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
  });
});
