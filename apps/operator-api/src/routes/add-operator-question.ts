// POST /api/v2/operator/activities/:ActivityID/questions: the add-question use case (owners).
import { addOperatorQuestionOperation } from '@backbone/contracts';
import { toQuestion } from '@backbone/domain';
import { mountOperation, operatorActorOf, type OperationRoutes } from '@backbone/http';
import { addOperatorQuestion } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountAddOperatorQuestion(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, addOperatorQuestionOperation, async ({ params, body, auth }) => ({
    status: 201,
    body: toQuestion(
      await addOperatorQuestion(deps, { accountId: auth.accountId, activityId: params.ActivityID, question: body, actor: operatorActorOf(auth) }),
    ),
  }));
}
