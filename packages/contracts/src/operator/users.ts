// The account's console users, for owners: list, add (the answer carries a one-time password), disable.
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import { OPERATOR_ROLES, type Operation } from '../operation.js';
import { operatorTags } from './shared.schemas.js';

export const operatorUserSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['UserID', 'Email', 'Role', 'Disabled', 'CreatedAt'],
  properties: {
    UserID: uuidSchema,
    Email: { type: 'string' },
    Role: { type: 'string', enum: OPERATOR_ROLES },
    Disabled: { type: 'boolean' },
    CreatedAt: { type: 'string', format: 'date-time' },
  },
} as const;
export type ConsoleUser = FromSchema<typeof operatorUserSchema>;

export const listOperatorUsersOperation = {
  operationId: 'listOperatorUsers',
  method: 'get',
  path: '/api/v2/operator/users',
  summary: "List the account's console users",
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  responses: { 200: { description: 'By e-mail.', schema: { type: 'array', items: operatorUserSchema } } },
} as const satisfies Operation;

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

export const disableOperatorUserOperation = {
  operationId: 'disableOperatorUser',
  method: 'post',
  path: '/api/v2/operator/users/:UserID/disable',
  summary: 'Disable a console user',
  description: 'The user can no longer sign in and its sessions end. Repeating it changes nothing.',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner'],
  params: { type: 'object', required: ['UserID'], properties: { UserID: uuidSchema } },
  responses: { 200: { description: 'The user, disabled.', schema: operatorUserSchema }, 404: { description: 'No such user in this account.' } },
} as const satisfies Operation;
