// Routing from the contracts' lists: an app gives one mount function per operation of its list, keyed by operationId,
// so an operation without a route, or a route for an operation not in the list, does not compile.
import type { Operation } from '@backbone/contracts';
import type { OperationRoutes } from './operation-routes.js';

export type MountRoute<Deps> = (routes: OperationRoutes, deps: Deps) => void;

export type RouteMounts<Ops extends readonly Operation[], Deps> = { readonly [Op in Ops[number] as Op['operationId']]: MountRoute<Deps> };

/** Mounts the operations in list order, each with its mount function. */
export function mountOperations<const Ops extends readonly Operation[], Deps>(
  routes: OperationRoutes,
  operations: Ops,
  mounts: RouteMounts<Ops, Deps>,
  deps: Deps,
): void {
  const byId = mounts as unknown as Readonly<Record<string, MountRoute<Deps>>>;
  for (const op of operations) byId[op.operationId]!(routes, deps);
}
