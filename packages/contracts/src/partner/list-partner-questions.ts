// GET /api/v2/ota/partner/questions/:ActivityID: the waiver questions of an activity.
import type { Operation } from '../operation.js';
import { activityIdParams, partnerTags, questionsResponses } from './shared.schemas.js';

export const listPartnerQuestionsOperation = {
  operationId: 'listPartnerQuestions',
  method: 'get',
  path: '/api/v2/ota/partner/questions/:ActivityID',
  summary: 'Waiver questions of an activity',
  description: 'Takes no query parameter. (The contract lists a 422 for a missing Date here; that line is a slip: there is no Date parameter, and no 422.)',
  tags: partnerTags,
  scope: 'ota',
  params: activityIdParams,
  responses: questionsResponses,
} as const satisfies Operation;
