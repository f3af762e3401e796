// The operator API's permission table (operationId -> roles), read from the `roles` each operator operation declares:
// the routes authorize with those declarations, the console hides what a role may not do with this table, and
// docs/permissions.md is generated from it. Staff work the day's bookings (look up, sell, the availability they sell
// from); everything that shapes the account (activities, the schedule, keys, users, failed events) is the owner's.
import type { OperatorRole, OperatorRoles, SessionOperation } from '../operation.js';
import { OPERATOR_OPERATIONS } from './operations.js';

type OperatorOperation = (typeof OPERATOR_OPERATIONS)[number];

/** The operator operations that a session or an admin key calls (all but signing in). */
export type OperatorOperationId = Extract<OperatorOperation, SessionOperation>['operationId'];

export const OPERATOR_PERMISSIONS: Readonly<Record<OperatorOperationId, OperatorRoles>> = permissionsOf(OPERATOR_OPERATIONS);

function permissionsOf(operations: readonly OperatorOperation[]): Readonly<Record<OperatorOperationId, OperatorRoles>> {
  const table = {} as Record<OperatorOperationId, OperatorRoles>;
  for (const op of operations) if (op.auth === 'session-or-key') table[op.operationId] = op.roles;
  return Object.freeze(table);
}

/** Whether a user of `role` may call the operation; an admin API key acts as an owner. */
export function operatorMay(role: OperatorRole, operationId: OperatorOperationId): boolean {
  return OPERATOR_PERMISSIONS[operationId].includes(role);
}
