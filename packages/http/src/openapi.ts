// Assembles the OpenAPI 3.1 document from the same Operation objects that drive routing and validation.
import type { Operation } from '@backbone/contracts';
import { ALL_OPERATIONS, OPENAPI_INFO, problemSchema } from '@backbone/contracts';

interface ObjectSchema {
  properties?: Record<string, object>;
  required?: readonly string[];
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
  RateLimit: { $ref: '#/components/headers/RateLimit' },
};

function parameters(schema: unknown, location: 'path' | 'query') {
  const s = (schema ?? {}) as ObjectSchema;
  return Object.entries(s.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (s.required ?? []).includes(name),
    schema: property,
    ...((property as { description?: string }).description ? { description: (property as { description: string }).description } : {}),
  }));
}

function requestBodyOf(op: Operation) {
  if (op.body) return { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } };
  if (op.rawBody)
    return {
      requestBody: {
        required: true,
        description: op.rawBody.description,
        content: Object.fromEntries(op.rawBody.contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])),
      },
    };
  return {};
}

export function buildOpenApiDocument(operations: readonly Operation[], info: { title: string; version: string; description: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameterList = [
      ...parameters(op.params, 'path'),
      ...parameters(op.query, 'query'),
      ...(op.idempotent
        ? [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: false,
              schema: { type: 'string', maxLength: 255 },
              description:
                'Retry-safe key, owned by the caller (the partner of an ota key, else the user or the API key): the same key with the same method, path and body within 24 hours replays the first answer; with another path or body it is a 422 /idempotency-conflict.',
            },
          ]
        : []),
      ...(op.rawBody
        ? [
            {
              name: 'Content-Length',
              in: 'header',
              required: true,
              schema: { type: 'integer', minimum: 1, maximum: op.rawBody.maxBytes },
              description: "The body's size in bytes (required: a chunked body is refused with 411).",
            },
            {
              name: 'Content-Disposition',
              in: 'header',
              required: false,
              schema: { type: 'string' },
              description: 'Optional file name: `attachment; filename="waiver.pdf"`, or `filename*=UTF-8\'\'…` (RFC 6266) for other characters.',
            },
          ]
        : []),
    ];
    const responses: Record<string, unknown> = {};
    // OCTO's errors are its own JSON form (docs/octo.md), declared by its operations; the others are problems.
    const errorMediaType = op.path.startsWith('/octo/') ? 'application/json' : 'application/problem+json';
    for (const [status, response] of Object.entries(op.responses)) {
      const isProblem = Number(status) >= 400;
      responses[status] = {
        description: response.description,
        ...(response.headers
          ? { headers: Object.fromEntries(Object.entries(response.headers).map(([n, h]) => [n, { description: h.description, schema: { type: 'string' } }])) }
          : {}),
        ...(response.contentTypes
          ? { content: Object.fromEntries(response.contentTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])) }
          : response.schema || isProblem
            ? {
                content: {
                  [isProblem ? errorMediaType : 'application/json']: { schema: response.schema ?? { $ref: '#/components/schemas/Problem' } },
                },
              }
            : {}),
      };
    }
    if (op.auth !== 'none' && op.auth !== 'public') {
      // Every answer to a key carries the rate-limit fields (rate-limits.ts); a session's answers carry none.
      for (const response of Object.values(responses) as Array<{ headers?: Record<string, unknown> }>)
        response.headers = { ...response.headers, ...RATE_LIMIT_HEADERS };
      responses['429'] ??= { $ref: '#/components/responses/RateLimited' };
    }
    // Every operation reads PostgreSQL (a key, a session, a user), so any of them may meet it unreachable.
    responses['503'] ??= { $ref: '#/components/responses/Unavailable' };
    if (op.auth === 'public') {
      (paths[path] ??= {})[op.method] = {
        operationId: op.operationId,
        summary: op.summary,
        ...(op.description ? { description: op.description } : {}),
        tags: op.tags,
        security: [],
        ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
        ...requestBodyOf(op),
        responses,
      };
      continue;
    }
    responses['401'] ??= {
      description: op.auth === 'session-or-key' ? 'No live session cookie and no valid admin API key.' : 'Missing, malformed, unknown or revoked API key.',
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    responses['403'] ??= {
      description:
        op.auth === 'session-or-key'
          ? op.roles.includes('staff')
            ? "Another origin: a session's state-changing request needs its own Origin, or Sec-Fetch-Site: same-origin."
            : "Another origin (a session's state-changing request needs its own Origin, or Sec-Fetch-Site: same-origin), or a staff user: this operation is for owners (and admin keys)."
          : `The API key lacks the '${op.scope}' scope.`,
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    };
    (paths[path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      security: op.auth === 'none' ? [] : op.auth === 'session-or-key' ? [{ bearerAuth: ['admin'] }, { sessionCookie: [] }] : [{ bearerAuth: [op.scope] }],
      ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
      ...requestBodyOf(op),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'API key issued by the operator (admin CLI). Scopes: ota, usage:write, usage:read, platform:events, admin.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'backbone_session',
          description: "The operator console's session (POST /api/v2/operator/session).",
        },
      },
      schemas: { Problem: problemSchema },
      headers: {
        'RateLimit-Policy': {
          description:
            'The API key\'s quota (IETF draft-ietf-httpapi-ratelimit-headers-10): `"default";q=<requests>;w=<seconds>`. Sent with every answer to a key while limits are on.',
          schema: { type: 'string', examples: ['"default";q=40;w=2'] },
        },
        RateLimit: {
          description: 'What is left of the quota: `"default";r=<requests remaining>;t=<seconds until the quota is whole again>`.',
          schema: { type: 'string', examples: ['"default";r=12;t=1'] },
        },
      },
      responses: {
        RateLimited: {
          description: 'The API key has spent its quota for the current window (problem type `/rate-limited`); retry after `Retry-After` seconds.',
          headers: {
            'Retry-After': { description: 'Whole seconds until the quota is whole again.', schema: { type: 'integer', minimum: 1 } },
            ...RATE_LIMIT_HEADERS,
          },
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
        Unavailable: {
          description:
            'The database (or the event queue) cannot be reached at the moment (problem type `/unavailable`): a restart, a failover, no free connection. Send the same request again after `Retry-After` seconds; with an `Idempotency-Key` a retry is never applied twice.',
          headers: { 'Retry-After': { description: 'Whole seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } },
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
    },
    paths,
  };
}

/** The document every app serves: all operations behind the one base URL. */
export function buildApiDocument() {
  return buildOpenApiDocument(ALL_OPERATIONS, OPENAPI_INFO);
}
