// POST /api/v2/operator/activities/:ActivityID/timeslots: the generate-timeslots use case (owners).
import { generateTimeslotsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { generateTimeslots } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountGenerateTimeslots(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, generateTimeslotsOperation, async ({ params, body, auth }) => {
    const result = await generateTimeslots(deps, { accountId: auth.accountId, activityId: params.ActivityID, pattern: body });
    return { status: 201, body: { Created: result.created, Existing: result.existing, Skipped: result.skipped.map((s) => ({ Date: s.date, Time: s.time })) } };
  });
}
