// GET /api/v2/ota/partner/questions/:ActivityID: the activity's waiver questions in display order. It takes no
// query parameter, so it never answers 422 (the contract's 422 line for this path is a slip).
import { listPartnerQuestionsOperation } from '@backbone/contracts';
import { listOfferedActivityQuestions, type Pool } from '@backbone/db';
import { notFound, toQuestion } from '@backbone/domain';
import { mountOperation, type HandlerResult, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';

/** Shared with the core path, which answers the same. */
export async function answerQuestions(pool: Pool, accountId: string, activityId: string): Promise<HandlerResult> {
  const questions = await listOfferedActivityQuestions(pool, accountId, activityId);
  if (!questions) throw notFound('Activity');
  return { status: 200, body: questions.map(toQuestion) };
}

export function mountListPartnerQuestions(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listPartnerQuestionsOperation, ({ params, auth }) => answerQuestions(deps.pool, auth.accountId, params.ActivityID));
}
