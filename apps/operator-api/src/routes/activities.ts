// Activities and questions: create and edit (owners), list and add questions, generate timeslots; one use case each.
import {
  addActivityQuestionOperation,
  createActivityOperation,
  editActivityOperation,
  generateTimeslotsOperation,
  listActivityQuestionsOperation,
} from '@backbone/contracts';
import { findActivity, listActivityQuestions } from '@backbone/db';
import { notFound, toOperatorActivity, toQuestion } from '@backbone/domain';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { addOperatorQuestion, createOperatorActivity, editOperatorActivity, generateTimeslots } from '@backbone/use-cases';
import type { OperatorAppDeps } from '../deps.js';

export function mountCreateActivity(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, createActivityOperation, async ({ body, auth }) => ({
    status: 201,
    body: toOperatorActivity(await createOperatorActivity(deps, { accountId: auth.accountId, activity: body })),
  }));
}

export function mountEditActivity(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, editActivityOperation, async ({ params, body, auth }) => ({
    status: 200,
    body: toOperatorActivity(await editOperatorActivity(deps, { accountId: auth.accountId, activityId: params.ActivityID, changes: body })),
  }));
}

export function mountListQuestions(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, listActivityQuestionsOperation, async ({ params, auth }) => {
    const activity = await findActivity(deps.pool, auth.accountId, params.ActivityID);
    if (!activity) throw notFound('Activity');
    return {
      status: 200,
      body: (await listActivityQuestions(deps.pool, auth.accountId, activity.id)).map(toQuestion),
      headers: { 'Cache-Control': 'no-store' },
    };
  });
}

export function mountAddQuestion(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, addActivityQuestionOperation, async ({ params, body, auth }) => ({
    status: 201,
    body: toQuestion(await addOperatorQuestion(deps, { accountId: auth.accountId, activityId: params.ActivityID, question: body })),
  }));
}

export function mountGenerateTimeslots(routes: OperationRoutes, deps: OperatorAppDeps): void {
  mountOperation(routes, deps, generateTimeslotsOperation, async ({ params, body, auth }) => {
    const result = await generateTimeslots(deps, { accountId: auth.accountId, activityId: params.ActivityID, pattern: body });
    return { status: 201, body: { Created: result.created, Existing: result.existing, Skipped: result.skipped.map((s) => ({ Date: s.date, Time: s.time })) } };
  });
}
