// Every operation's schemas compile with the validator the apps use (a schema ajv cannot compile fails the app at
// mount time, or the answer check at test time), and its path parameters are the ones its path names.
import { describe, expect, it } from 'vitest';
import { ALL_OPERATIONS, compileValidator, type Operation } from '@backbone/contracts';

const operations: readonly Operation[] = ALL_OPERATIONS;

describe('ALL_OPERATIONS', () => {
  it('has each operationId, and each method and path, once', () => {
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = operations.map((op) => `${op.method} ${op.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it.each(operations.map((op) => [op.operationId, op] as const))('%s: its request and response schemas compile', (_id, op) => {
    for (const [schema, source] of [
      [op.params, 'params'],
      [op.query, 'query'],
      [op.body, 'body'],
    ] as const) {
      if (schema === undefined) continue;
      expect(typeof schema).toBe('object');
      expect(() => compileValidator(schema as object, source), `${op.operationId} ${source}`).not.toThrow();
    }
    for (const [status, response] of Object.entries(op.responses)) {
      if (response.schema === undefined) continue;
      expect(() => compileValidator(response.schema as object, 'body'), `${op.operationId} ${status}`).not.toThrow();
    }
  });

  it.each(operations.map((op) => [op.operationId, op] as const))('%s: declares exactly the parameters its path names, all required', (_id, op) => {
    const named = [...op.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]!).sort();
    const params = (op.params ?? {}) as { properties?: Record<string, unknown>; required?: readonly string[] };
    expect(Object.keys(params.properties ?? {}).sort()).toEqual(named);
    expect([...(params.required ?? [])].sort()).toEqual(named);
  });
});
