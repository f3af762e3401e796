// GET /api/v2/ota/core/questions/:ActivityID: the same questions as the partner path.
import type { IRouter } from 'express';
import { listCoreQuestionsOperation } from '@backbone/contracts';
import { mountOperation } from '@backbone/http';
import type { PartnerAppDeps } from '../app.js';
import { answerQuestions } from './list-partner-questions.js';

export function mountListCoreQuestions(router: IRouter, deps: PartnerAppDeps): void {
  mountOperation(router, deps, listCoreQuestionsOperation, ({ params, auth }) => answerQuestions(deps.pool, auth.accountId, params.ActivityID));
}
