// One operation, one name (the house rule): the contract file is `<area>/<kebab-name>.ts` and exports
// `<operationId>Operation`, the app's route file is `routes/<kebab-name>.ts` (OCTO's: `routes/octo/<kebab-name>.ts`)
// and exports `mount<OperationId>`, the use case it calls (when it calls one) is `<operationId>`, and the app's mount
// map pairs the route and the contract by operationId. A reader who knows one of
// the names finds the others with one search; this fails when an operation is added or renamed without the others
// following. The files are read as text, as a reader would search them, so no workspace's internals are imported.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as contracts from '@backbone/contracts';
import {
  ALL_OPERATIONS,
  OCTO_OPERATIONS,
  OPERATOR_OPERATIONS,
  PARTNER_OPERATIONS,
  PLATFORM_OPERATIONS,
  SHOP_OPERATIONS,
  USAGE_OPERATIONS,
  type Operation,
} from '@backbone/contracts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const contractsDir = path.join(root, 'packages/contracts/src');

/** Each list's folder in the contracts, the app that mounts it and the app's folder of its route files (under src/). */
const LISTS: readonly { area: string; app: string; routes: string; operations: readonly Operation[] }[] = [
  { area: 'partner', app: 'partner-api', routes: 'routes', operations: PARTNER_OPERATIONS },
  { area: 'shop', app: 'partner-api', routes: 'routes/shop', operations: SHOP_OPERATIONS },
  { area: 'usage', app: 'usage-api', routes: 'routes', operations: USAGE_OPERATIONS },
  { area: 'platform', app: 'usage-api', routes: 'routes', operations: PLATFORM_OPERATIONS },
  { area: 'operator', app: 'operator-api', routes: 'routes', operations: OPERATOR_OPERATIONS },
  { area: 'octo', app: 'partner-api', routes: 'routes/octo', operations: OCTO_OPERATIONS },
];
const OPERATIONS = LISTS.flatMap(({ area, app, routes, operations }) => operations.map((op) => ({ area, app, routes, op })));
/** Every folder of route files, `<app>/src/<routes>`. */
const ROUTE_FOLDERS = [...new Set(LISTS.map((l) => `${l.app}/src/${l.routes}`))];

const kebab = (operationId: string) => operationId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
const pascal = (operationId: string) => operationId[0]!.toUpperCase() + operationId.slice(1);
const read = (file: string) => readFileSync(file, 'utf8');
const tsFilesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFilesUnder(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
/** `[exported name, operationId]` of every operation object a contract file declares. */
const declaredOperations = (source: string) => [...source.matchAll(/export const (\w+) = \{\s*operationId: '(\w+)'/g)].map((m) => [m[1], m[2]]);
const mountFunctions = (source: string) => [...source.matchAll(/export (?:async )?function (mount\w+)/g)].map((m) => m[1]);

describe('one name per operation', () => {
  it('the lists cover every operation once', () => {
    expect(OPERATIONS.map(({ op }) => op.operationId)).toEqual(ALL_OPERATIONS.map((op) => op.operationId));
    expect(new Set(ALL_OPERATIONS.map((op) => op.operationId)).size).toBe(ALL_OPERATIONS.length);
  });

  it.each(OPERATIONS.map(({ area, app, op }) => [op.operationId, area, app, op] as const))('%s: contracts %s/, route in %s', (operationId, area, app, op) => {
    const contract = read(path.join(contractsDir, area, `${kebab(operationId)}.ts`));
    expect(declaredOperations(contract), 'the contract file declares this operation and no other').toEqual([[`${operationId}Operation`, operationId]]);
    expect((contracts as Record<string, unknown>)[`${operationId}Operation`], 'the package exports it under that name').toBe(op);

    const routes = OPERATIONS.find((o) => o.op === op)!.routes;
    const route = read(path.join(root, 'apps', app, 'src', routes, `${kebab(operationId)}.ts`));
    expect(mountFunctions(route), 'the route file exports its one mount function').toEqual([`mount${pascal(operationId)}`]);
    expect(route, 'the route file mounts this operation').toContain(`${operationId}Operation`);

    // The use case a route calls, if it calls one, is named after its operation too (reads with no rule of their own
    // query the repositories instead).
    const useCases = [...route.matchAll(/import \{([^}]*)\} from '@backbone\/use-cases'/g)].flatMap((m) =>
      m[1]!
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== '' && !name.startsWith('type ')),
    );
    if (useCases.length > 0) expect(useCases, 'the route calls the use case named after its operation').toEqual([operationId]);

    const appSource = read(path.join(root, 'apps', app, 'src/app.ts'));
    expect(appSource).toContain(`import { mount${pascal(operationId)} } from './${routes}/${kebab(operationId)}.js';`);
    expect(appSource).toMatch(new RegExp(`\\b${operationId}: mount${pascal(operationId)}\\b`));
  });

  it('no contract file declares a second operation, or one not named after it', () => {
    const expected = new Map(OPERATIONS.map(({ area, op }) => [op.operationId, path.join(contractsDir, area, `${kebab(op.operationId)}.ts`)]));
    for (const file of tsFilesUnder(contractsDir)) {
      const ids = [...read(file).matchAll(/operationId: '(\w+)'/g)].map((m) => m[1]!);
      expect(ids.length, `${path.relative(root, file)} declares at most one operation`).toBeLessThanOrEqual(1);
      for (const operationId of ids) expect(file, operationId).toBe(expected.get(operationId));
    }
  });

  it.each(ROUTE_FOLDERS)('every route file of %s is named after the one operation it mounts', (folder) => {
    const names = new Set(OPERATIONS.filter((o) => `${o.app}/src/${o.routes}` === folder).map(({ op }) => kebab(op.operationId)));
    const dir = path.join(root, 'apps', folder);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const mounts = mountFunctions(read(path.join(dir, file)));
      if (mounts.length === 0) continue; // a helper the route files share (partner-of.ts)
      const name = file.slice(0, -'.ts'.length);
      expect(names.has(name), `${folder}/${file} is not named after an operation whose route files are there`).toBe(true);
      expect(mounts, file).toEqual([`mount${pascal(name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()))}`]);
    }
  });
});
