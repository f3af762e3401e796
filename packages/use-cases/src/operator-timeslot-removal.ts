// Removing an activity's empty timeslots in bulk (the undo of an over-eager generation): a dry run says what would go,
// the removal deletes only timeslots that no booking names and writes its audit entry in the same transaction.
import type { EmptyTimeslotsRange } from '@backbone/contracts';
import { emptyTimeslots, findActivity, recordAudit, withTransaction, type Pool } from '@backbone/db';
import { checkOperatorDateRange, notFound, WEEKDAYS, type AuditActor } from '@backbone/domain';

/** A removal spans at most a year, as a generation's pattern does in practice. */
export const MAX_REMOVAL_DAYS = 366;

export async function removeEmptyTimeslots(
  deps: { pool: Pool },
  request: { accountId: string; activityId: string; range: EmptyTimeslotsRange; actor: AuditActor },
): Promise<{ removed: number; kept: number; timeslots: { date: string; time: string }[] }> {
  const r = request.range;
  checkOperatorDateRange(r.From, r.To, MAX_REMOVAL_DAYS);
  const activity = await findActivity(deps.pool, request.accountId, request.activityId);
  if (!activity) throw notFound('Activity');
  const range = { from: r.From, to: r.To, isoWeekdays: (r.Days ?? []).map((d) => WEEKDAYS.indexOf(d) + 1), times: r.Times ?? [] };
  if (r.DryRun) {
    const found = await emptyTimeslots(deps.pool, request.accountId, activity.id, range, false);
    return { removed: 0, kept: found.withBookings, timeslots: found.empty };
  }
  return withTransaction(deps.pool, async (client) => {
    const found = await emptyTimeslots(client, request.accountId, activity.id, range, true);
    if (found.empty.length > 0)
      await recordAudit(client, request.accountId, {
        actor: request.actor,
        action: 'timeslots.removed',
        subject: { type: 'activity', id: activity.activityId, label: activity.name },
        changes: { Timeslots: { From: { Removed: found.empty.length, From: r.From, To: r.To, Days: r.Days ?? [], Times: r.Times ?? [] }, To: null } },
      });
    return { removed: found.empty.length, kept: found.withBookings, timeslots: found.empty };
  });
}
