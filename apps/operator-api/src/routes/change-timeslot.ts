// POST .../timeslots/:TimeslotID/close and /reopen, PATCH .../timeslots/:TimeslotID: one use case each.
import { changeTimeslotCapacityOperation, closeTimeslotOperation, reopenTimeslotOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { changeTimeslotCapacity, closeTimeslot, reopenTimeslot } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCloseTimeslot(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, closeTimeslotOperation, async ({ params, auth }) => ({
    status: 200,
    body: await closeTimeslot(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID }),
  }));
}

export function mountReopenTimeslot(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, reopenTimeslotOperation, async ({ params, auth }) => ({
    status: 200,
    body: await reopenTimeslot(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID }),
  }));
}

export function mountChangeTimeslotCapacity(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, changeTimeslotCapacityOperation, async ({ params, body, auth }) => ({
    status: 200,
    body: await changeTimeslotCapacity(deps, { accountId: auth.accountId, timeslotId: params.TimeslotID, capacity: body.Capacity }),
  }));
}
