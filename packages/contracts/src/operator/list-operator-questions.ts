// GET /api/v2/operator/activities/:ActivityID/questions: an activity's waiver questions. Staff read them too: a sale at
// the counter asks them.
import type { Operation } from '../operation.js';
import { questionSchema } from '../partner/shared.schemas.js';
import { activityParams } from './activities.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const listOperatorQuestionsOperation = {
  operationId: 'listOperatorQuestions',
  method: 'get',
  path: '/api/v2/operator/activities/:ActivityID/questions',
  summary: "An activity's waiver questions",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  params: activityParams,
  responses: {
    200: { description: 'In display order.', schema: { type: 'array', items: questionSchema } },
    404: { description: 'No such activity in this account.' },
  },
} as const satisfies Operation;
