// Assembles the OpenAPI 3.1 document from the same Operation objects that drive routing and validation.
import type { Operation } from '@backbone/contracts';
import { ALL_OPERATIONS, OPENAPI_INFO, problemSchema } from '@backbone/contracts';

interface ObjectSchema {
  properties?: Record<string, object>;
  required?: readonly string[];
}

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

export function buildOpenApiDocument(operations: readonly Operation[], info: { title: string; version: string; description: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameterList = [
      ...parameters(op.params, 'path'),
      ...parameters(op.query, 'query'),
      ...(op.idempotent
        ? [{ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 }, description: 'Retry-safe key: the same key and body within 24 hours replays the first answer.' }]
        : []),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, response] of Object.entries(op.responses)) {
      const isProblem = Number(status) >= 400;
      responses[status] = {
        description: response.description,
        ...(response.headers ? { headers: Object.fromEntries(Object.entries(response.headers).map(([n, h]) => [n, { description: h.description, schema: { type: 'string' } }])) } : {}),
        ...(response.schema || isProblem
          ? { content: { [isProblem ? 'application/problem+json' : 'application/json']: { schema: response.schema ?? { $ref: '#/components/schemas/Problem' } } } }
          : {}),
      };
    }
    responses['401'] ??= { description: op.auth === 'session-or-key' ? 'No live session cookie and no valid admin API key.' : 'Missing, malformed, unknown or revoked API key.', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    responses['403'] ??= { description: op.auth === 'session-or-key' ? 'Another origin, or a staff user on an owner-only operation.' : `The API key lacks the '${op.scope}' scope.`, content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    (paths[path] ??= {})[op.method] = {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: op.tags,
      security: op.auth === 'none' ? [] : op.auth === 'session-or-key' ? [{ bearerAuth: ['admin'] }, { sessionCookie: [] }] : [{ bearerAuth: [op.scope] }],
      ...(parameterList.length > 0 ? { parameters: parameterList } : {}),
      ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: op.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info,
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key issued by the operator (admin CLI). Scopes: ota, usage:write, usage:read, platform:events, admin.' },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: 'backbone_session', description: 'The operator console\'s session (POST /api/v2/operator/session).' },
      },
      schemas: { Problem: problemSchema },
    },
    paths,
  };
}

/** The document every app serves: all operations behind the one base URL. */
export function buildApiDocument() {
  return buildOpenApiDocument(ALL_OPERATIONS, OPENAPI_INFO);
}
