// POST /api/v2/operator/activities/:ActivityID/questions: add a waiver question after the last one (owners).
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import type { Operation } from '../operation.js';
import { questionSchema, QUESTION_TYPES } from '../partner/shared.schemas.js';
import { activityParams } from './activities.schemas.js';
import { operatorTags } from './shared.schemas.js';

export const newQuestionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Question', 'Type'],
  properties: {
    Question: { ...textSchema(2000), minLength: 1 },
    Type: { type: 'string', enum: QUESTION_TYPES },
    Required: { type: 'boolean' },
    Options: { type: 'array', maxItems: 100, items: textSchema(1000) },
    PerParticipant: { type: 'boolean' },
  },
} as const;
export type NewQuestion = FromSchema<typeof newQuestionSchema>;

export const addOperatorQuestionOperation = {
  operationId: 'addOperatorQuestion',
  method: 'post',
  path: '/api/v2/operator/activities/:ActivityID/questions',
  summary: 'Add a waiver question (after the last one)',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: activityParams,
  body: newQuestionSchema,
  responses: {
    201: { description: 'Added.', schema: questionSchema },
    404: { description: 'No such activity in this account.' },
    422: { description: 'Invalid question.' },
  },
} as const satisfies Operation;
