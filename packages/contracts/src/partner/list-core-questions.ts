// GET /api/v2/ota/core/questions/:ActivityID: the same waiver questions under the core path.
import type { Operation } from '../operation.js';
import { activityIdParams, partnerTags, questionsResponses } from './shared.schemas.js';

export const listCoreQuestionsOperation = {
  operationId: 'listCoreQuestions',
  method: 'get',
  path: '/api/v2/ota/core/questions/:ActivityID',
  summary: 'Waiver questions of an activity (core path)',
  description: 'The same answer as the partner path.',
  tags: partnerTags,
  scope: 'ota',
  params: activityIdParams,
  responses: questionsResponses,
} as const satisfies Operation;
