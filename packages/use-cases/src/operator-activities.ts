// The operator's activity changes, for the console and the admin CLI alike: create, edit (hiding from the shopfront
// included), add a waiver question and generate timeslots from a weekly pattern; each checked by the domain's rules and
// written with its audit entry in one transaction.
import type { ActivityChanges, NewOperatorActivity, NewQuestion, TimeslotPattern } from '@backbone/contracts';
import {
  addQuestion,
  createActivity,
  findAccount,
  findActivity,
  findExistingTimeslots,
  inTransaction,
  insertTimeslots,
  recordAudit,
  updateActivity,
  withTransaction,
  type Db,
  type Pool,
} from '@backbone/db';
import {
  auditChanges,
  checkNewActivity,
  checkNewQuestion,
  notFound,
  planTimeslots,
  toOperatorActivity,
  toQuestion,
  WEEKDAYS,
  type Activity,
  type AuditActor,
  type OpeningHours,
  type PlannedTimeslot,
  type SkippedTimeslot,
  type WaiverQuestion,
} from '@backbone/domain';

export interface ActivityDeps {
  pool: Pool;
}

/**
 * `deps.pool` may be a transaction's client, for a write that joins a larger one (seedOperator). Without a TimeZone the
 * activity takes its account's; `activityId` fixes the new activity's id (the demo's, which the README's walk names).
 */
export async function createOperatorActivity(
  deps: { pool: Db },
  request: {
    accountId: string;
    activity: Omit<NewOperatorActivity, 'TimeZone'> & { TimeZone?: string };
    activityId?: string;
    /** A day-admission activity (OCTO's OPENING_HOURS): open from-to each day, one admission timeslot a day. */
    openingHours?: OpeningHours;
    actor: AuditActor;
  },
): Promise<Activity> {
  const a = request.activity;
  const input = {
    name: a.Name.trim(),
    description: a.Description ?? '',
    durationMinutes: a.DurationMinutes,
    timeZone: a.TimeZone ?? (await findAccount(deps.pool, request.accountId))?.timeZone ?? 'UTC',
    priceMinor: a.Price.Amount,
    currency: a.Price.Currency,
    maxParticipants: a.MaxParticipants,
    active: a.Active ?? true,
    inShopfront: a.InShopfront ?? true,
    openingHours: request.openingHours ?? null,
  };
  checkNewActivity(input);
  return inTransaction(deps.pool, async (client) => {
    const activity = await createActivity(client, request.accountId, { ...input, ...(request.activityId ? { activityId: request.activityId } : {}) });
    await recordAudit(client, request.accountId, {
      actor: request.actor,
      action: 'activity.created',
      subject: activitySubject(activity),
      changes: auditChanges(null, toOperatorActivity(activity), ACTIVITY_IDS),
    });
    return activity;
  });
}

// Ids name the subject; the audit's changes are the activity's other members, as the API shows them.
const ACTIVITY_IDS = ['ID', 'ActivityID'];

const activitySubject = (activity: Activity) => ({ type: 'activity' as const, id: activity.activityId, label: activity.name });

/** Applies the changes sent; the result must still be a valid activity (422 otherwise). Two edits at once: the last wins. */
export function editOperatorActivity(
  deps: ActivityDeps,
  request: { accountId: string; activityId: string; changes: ActivityChanges; actor: AuditActor },
): Promise<Activity> {
  return withTransaction(deps.pool, async (client) => {
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
    const updated = (await updateActivity(client, request.accountId, request.activityId, next))!;
    const changes = auditChanges(toOperatorActivity(current), toOperatorActivity(updated), ACTIVITY_IDS);
    if (Object.keys(changes).length > 0)
      await recordAudit(client, request.accountId, { actor: request.actor, action: 'activity.updated', subject: activitySubject(updated), changes });
    return updated;
  });
}

async function activityOf(db: Db, accountId: string, activityId: string): Promise<Activity> {
  const activity = await findActivity(db, accountId, activityId);
  if (!activity) throw notFound('Activity');
  return activity;
}

/** `deps.pool` may be a transaction's client (seedOperator). */
export async function addOperatorQuestion(
  deps: { pool: Db },
  request: { accountId: string; activityId: string; question: NewQuestion; actor: AuditActor },
): Promise<WaiverQuestion> {
  const activity = await activityOf(deps.pool, request.accountId, request.activityId);
  const q = request.question;
  const input = { question: q.Question, type: q.Type, required: q.Required ?? false, options: q.Options ?? [], perParticipant: q.PerParticipant ?? false };
  checkNewQuestion(input);
  return inTransaction(deps.pool, async (client) => {
    const added = await addQuestion(client, request.accountId, activity.id, input);
    const changes = auditChanges(null, toQuestion(added), ['ID']);
    await recordAudit(client, request.accountId, { actor: request.actor, action: 'question.added', subject: activitySubject(activity), changes });
    return added;
  });
}

/** `deps.pool` may be a transaction's client (seedOperator). */
export async function generateTimeslots(
  deps: { pool: Db },
  request: { accountId: string; activityId: string; pattern: TimeslotPattern; actor: AuditActor },
): Promise<{
  activity: Activity;
  created: number;
  existing: number;
  skipped: SkippedTimeslot[];
  /** DryRun: every timeslot of the pattern, and which of them (`date time`) exist already. */
  preview: { timeslots: PlannedTimeslot[]; existing: Set<string> } | null;
}> {
  const activity = await activityOf(deps.pool, request.accountId, request.activityId);
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
  if (p.DryRun) {
    const existing = await findExistingTimeslots(deps.pool, request.accountId, activity.id, plan.timeslots);
    return { activity, created: 0, existing: existing.size, skipped: plan.skipped, preview: { timeslots: plan.timeslots, existing } };
  }
  const { created, existing } = await inTransaction(deps.pool, async (client) => {
    const inserted = await insertTimeslots(client, request.accountId, activity.id, plan.timeslots);
    // A pattern whose timeslots all existed already changed nothing.
    if (inserted.created > 0) {
      const generated = { Created: inserted.created, From: p.From, To: p.To, Days: p.Days, Times: p.Times, Capacity: p.Capacity ?? activity.maxParticipants };
      await recordAudit(client, request.accountId, {
        actor: request.actor,
        action: 'timeslots.generated',
        subject: activitySubject(activity),
        changes: { Timeslots: { From: null, To: generated } },
      });
    }
    return inserted;
  });
  return { activity, created, existing, skipped: plan.skipped, preview: null };
}
