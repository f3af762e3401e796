// The operator's activity changes, for the console and the admin CLI alike: create, edit (hiding from the shopfront
// included), add a waiver question and generate timeslots from a weekly pattern; each checked by the domain's rules.
import type { ActivityChanges, NewOperatorActivity, NewQuestion, TimeslotPattern } from '@backbone/contracts';
import { addQuestion, createActivity, findAccount, findActivity, insertTimeslots, updateActivity, withTransaction, type Db, type Pool } from '@backbone/db';
import {
  checkNewActivity,
  checkNewQuestion,
  notFound,
  planTimeslots,
  WEEKDAYS,
  type Activity,
  type OpeningHours,
  type PlannedTimeslot,
  type SkippedTimeslot,
  type WaiverQuestion,
} from '@backbone/domain';

export interface ActivityUnitOfWork {
  pool: Pool;
}

/**
 * `uow.pool` may be a transaction's client, for a write that joins a larger one (seedOperator). Without a TimeZone the
 * activity takes its account's; `activityId` fixes the new activity's id (the demo's, which the README's walk names).
 */
export async function createOperatorActivity(
  uow: { pool: Db },
  request: {
    accountId: string;
    activity: Omit<NewOperatorActivity, 'TimeZone'> & { TimeZone?: string };
    activityId?: string;
    /** A day-admission activity (OCTO's OPENING_HOURS): open from-to each day, one admission timeslot a day. */
    openingHours?: OpeningHours;
  },
): Promise<Activity> {
  const a = request.activity;
  const input = {
    name: a.Name.trim(),
    description: a.Description ?? '',
    durationMinutes: a.DurationMinutes,
    timeZone: a.TimeZone ?? (await findAccount(uow.pool, request.accountId))?.timeZone ?? 'UTC',
    priceMinor: a.Price.Amount,
    currency: a.Price.Currency,
    maxParticipants: a.MaxParticipants,
    active: a.Active ?? true,
    inShopfront: a.InShopfront ?? true,
    openingHours: request.openingHours ?? null,
  };
  checkNewActivity(input);
  return createActivity(uow.pool, request.accountId, { ...input, ...(request.activityId ? { activityId: request.activityId } : {}) });
}

/** Applies the changes sent; the result must still be a valid activity (422 otherwise). Two edits at once: the last wins. */
export function editOperatorActivity(uow: ActivityUnitOfWork, request: { accountId: string; activityId: string; changes: ActivityChanges }): Promise<Activity> {
  return withTransaction(uow.pool, async (client) => {
    const current = await findActivity(client, request.accountId, request.activityId);
    if (!current) throw notFound('Activity');
    const c = request.changes;
    const next = {
      name: c.Name?.trim() ?? current.name,
      description: c.Description ?? current.description,
      durationMinutes: c.DurationMinutes ?? current.durationMinutes,
      timeZone: current.timeZone,
      priceMinor: c.Price?.Amount ?? current.priceMinor,
      currency: c.Price?.Currency ?? current.currency,
      maxParticipants: c.MaxParticipants ?? current.maxParticipants,
      active: c.Active ?? current.active,
      inShopfront: c.InShopfront ?? current.inShopfront,
    };
    checkNewActivity(next);
    return (await updateActivity(client, request.accountId, request.activityId, next))!;
  });
}

async function activityOf(db: Db, accountId: string, activityId: string): Promise<Activity> {
  const activity = await findActivity(db, accountId, activityId);
  if (!activity) throw notFound('Activity');
  return activity;
}

/** `uow.pool` may be a transaction's client (seedOperator). */
export async function addOperatorQuestion(
  uow: { pool: Db },
  request: { accountId: string; activityId: string; question: NewQuestion },
): Promise<WaiverQuestion> {
  const activity = await activityOf(uow.pool, request.accountId, request.activityId);
  const q = request.question;
  const input = { question: q.Question, type: q.Type, required: q.Required ?? false, options: q.Options ?? [], perParticipant: q.PerParticipant ?? false };
  checkNewQuestion(input);
  return addQuestion(uow.pool, request.accountId, activity.id, input);
}

/** `uow.pool` may be a transaction's client (seedOperator). */
export async function generateTimeslots(
  uow: { pool: Db },
  request: { accountId: string; activityId: string; pattern: TimeslotPattern },
): Promise<{ activity: Activity; created: number; existing: number; skipped: SkippedTimeslot[]; preview: PlannedTimeslot[] | null }> {
  const activity = await activityOf(uow.pool, request.accountId, request.activityId);
  const p = request.pattern;
  // A day-admission activity without times given gets its one admission slot a day, at the opening time, every day.
  const admission = p.Times.length === 0 && activity.openingHours !== null;
  const plan = planTimeslots({
    from: p.From,
    to: p.To,
    days: admission && p.Days.length === 0 ? [...WEEKDAYS] : p.Days,
    times: admission ? [activity.openingHours!.from] : p.Times,
    timeZone: activity.timeZone,
    durationMinutes: activity.durationMinutes,
    // A 6-player room gets 6 places unless the operator says otherwise.
    capacity: p.Capacity ?? activity.maxParticipants,
  });
  if (p.DryRun) return { activity, created: 0, existing: 0, skipped: plan.skipped, preview: plan.timeslots };
  const { created, existing } = await insertTimeslots(uow.pool, request.accountId, activity.id, plan.timeslots);
  return { activity, created, existing, skipped: plan.skipped, preview: null };
}
