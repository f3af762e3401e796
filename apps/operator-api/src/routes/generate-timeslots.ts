// POST /api/v2/operator/activities/:ActivityID/timeslots: the generate-timeslots use case (owners).
import { generateTimeslotsOperation } from '@backbone/contracts';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { formatInZone } from '@backbone/domain';
import { generateTimeslots } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountGenerateTimeslots(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, generateTimeslotsOperation, async ({ params, body, auth }) => {
    const result = await generateTimeslots(deps, { accountId: auth.accountId, activityId: params.ActivityID, pattern: body, actor: operatorActorOf(auth) });
    const skipped = result.skipped.map((s) => ({ Date: s.date, Time: s.time }));
    if (result.preview) {
      const { timeslots, existing } = result.preview;
      const preview = timeslots.map((t) => ({
        Date: t.localDate,
        Time: t.localTime,
        StartsAt: formatInZone(t.startsAt, result.activity.timeZone),
        Capacity: t.capacity,
        Exists: existing.has(`${t.localDate} ${t.localTime}`),
      }));
      return { status: 200, body: { Created: 0, Existing: result.existing, Skipped: skipped, Preview: preview } };
    }
    return { status: 201, body: { Created: result.created, Existing: result.existing, Skipped: skipped } };
  });
}
