// POST /api/v2/operator/users: add a console user; the answer carries a one-time password (owners only).
import type { FromSchema } from 'json-schema-to-ts';
import { OPERATOR_ROLES, type Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';
import { operatorUserSchema } from './users.schemas.js';

export const newUserSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['Email', 'Role'],
  properties: { Email: { type: 'string', format: 'email', maxLength: 254 }, Role: { type: 'string', enum: OPERATOR_ROLES } },
} as const;
export type NewOperatorUser = FromSchema<typeof newUserSchema>;

export const createOperatorUserOperation = {
  operationId: 'createOperatorUser',
  method: 'post',
  path: '/api/v2/operator/users',
  summary: 'Add a console user',
  description: 'The answer carries a one-time password, shown this once; only its scrypt hash is stored.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  body: newUserSchema,
  responses: {
    201: {
      description: 'The user and its one-time password.',
      schema: {
        ...operatorUserSchema,
        required: [...operatorUserSchema.required, 'Password'],
        properties: { ...operatorUserSchema.properties, Password: { type: 'string' } },
      },
    },
    422: { description: 'Invalid or taken e-mail.' },
  },
} as const satisfies Operation;
