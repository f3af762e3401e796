// Every answer an in-process app gives during the tests is checked against the response schema its operation
// declares, the same objects /openapi.json is built from: an answer that breaks its own schema (a null where the
// schema says string, a member it does not list) fails the test file that provoked it, whichever test sent it.
import type http from 'node:http';
import { ALL_OPERATIONS, compileValidator, problemSchema, type Operation } from '@backbone/contracts';

export interface AnswerViolation {
  operationId: string;
  method: string;
  url: string;
  status: number;
  errors: string[];
  body: string;
}

const byId = new Map<string, Operation>(ALL_OPERATIONS.map((op) => [op.operationId, op]));
const violations: AnswerViolation[] = [];

/** Checks each JSON answer `server` sends once it is finished; what breaks a schema is kept for `assertAnswersKeptTheirSchemas`. */
export function checkAnswersOf(server: http.Server): void {
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.once('finish', () => {
      const operationId = (req as { operationId?: string }).operationId;
      const op = operationId ? byId.get(operationId) : undefined;
      if (!op || req.method === 'HEAD') return;
      const violation = checkAnswer(op, res.statusCode, String(res.getHeader('content-type') ?? ''), Buffer.concat(chunks).toString('utf8'));
      if (violation) violations.push({ operationId: op.operationId, method: req.method ?? '', url: req.url ?? '', status: res.statusCode, ...violation });
    });
  });
}

function checkAnswer(op: Operation, status: number, contentType: string, text: string): { errors: string[]; body: string } | null {
  const declared = op.responses[status];
  if (status === 304 || status === 204 || (declared && !declared.schema)) return null;
  const isProblem = contentType.startsWith('application/problem+json');
  const schema = declared?.schema ?? (isProblem ? problemSchema : undefined);
  // An answer of a status the operation does not declare is not a schema break as such (a 503, a 429): only its form is.
  if (!schema) return null;
  if (!contentType.includes('json')) return { errors: [`a ${contentType || 'typeless'} answer where JSON is declared`], body: text.slice(0, 500) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { errors: ['the answer is not JSON'], body: text.slice(0, 500) };
  }
  const errors = compileValidator(schema as object, 'body')(body);
  return errors.length === 0 ? null : { errors: errors.map((e) => e.message), body: text.slice(0, 500) };
}

/** Fails when an answer of this test file broke its operation's response schema; every test server checks its answers. */
export function assertAnswersKeptTheirSchemas(): void {
  if (violations.length === 0) return;
  const seen = violations.splice(0);
  const lines = seen.slice(0, 10).map((v) => `${v.method} ${v.url} -> ${v.status} (${v.operationId}): ${v.errors.join('; ')}\n    ${v.body}`);
  throw new Error(`${seen.length} answer(s) broke their response schema:\n${lines.join('\n')}`);
}
