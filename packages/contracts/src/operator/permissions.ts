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

/**
 * What a role may do within an operation it may call, where the same request does more or less depending on what it
 * asks (a sale at the list price, or a discount): the API refuses a grant the role lacks with 403 `/forbidden`, and the
 * console shows the control only to the roles granted it. As at the best back offices' desks: staff give a discount
 * with a reason (recorded and audited), only owners charge more than the list price or sell past a timeslot's capacity.
 */
export const OPERATOR_GRANTS = {
  discount: {
    roles: ['owner', 'staff'],
    operations: ['createSale', 'changeOperatorBooking'],
    summary: 'Charge less than the list price (a discount), with a reason',
  },
  overridePrice: {
    roles: ['owner'],
    operations: ['createSale', 'changeOperatorBooking'],
    summary: 'Charge more than the list price, with a reason',
  },
  overbook: {
    roles: ['owner'],
    operations: ['createSale'],
    summary: "Sell past a timeslot's capacity, confirmed (`Overbook: true`)",
  },
} as const satisfies Record<string, { roles: OperatorRoles; operations: readonly OperatorOperationId[]; summary: string }>;
export type OperatorGrant = keyof typeof OPERATOR_GRANTS;

/** Whether a user of `role` has the grant; an admin API key acts as an owner. */
export function operatorHasGrant(role: OperatorRole, grant: OperatorGrant): boolean {
  return (OPERATOR_GRANTS[grant].roles as readonly OperatorRole[]).includes(role);
}

/** Whether a user of `role` may call the operation; an admin API key acts as an owner. */
export function operatorMay(role: OperatorRole, operationId: OperatorOperationId): boolean {
  return OPERATOR_PERMISSIONS[operationId].includes(role);
}
