// GET /api/v2/operator/activities/:ActivityID/questions: an activity's waiver questions, from the repository.
import { listOperatorQuestionsOperation } from '@backbone/contracts';
import { findActivity, listActivityQuestions } from '@backbone/db';
import { notFound, toQuestion } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { OperatorAppDeps } from '../deps.js';

export function mountListOperatorQuestions(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listOperatorQuestionsOperation, async ({ params, auth }) => {
    const activity = await findActivity(deps.pool, auth.accountId, params.ActivityID);
    if (!activity) throw notFound('Activity');
    return {
      status: 200,
      body: (await listActivityQuestions(deps.pool, auth.accountId, activity.id)).map(toQuestion),
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}
