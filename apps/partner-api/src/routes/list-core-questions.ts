// GET /api/v2/ota/core/questions/:ActivityID: the same questions as the partner path.
import { listCoreQuestionsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import type { PartnerAppDeps } from '../deps.js';
import { answerQuestions } from './list-partner-questions.js';

export function mountListCoreQuestions(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listCoreQuestionsOperation, ({ params, auth }) => answerQuestions(deps.pool, auth.accountId, params.ActivityID));
}
