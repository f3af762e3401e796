// GET /api/v2/operator/session: who is signed in (the console's first request).
import type { FromSchema } from 'json-schema-to-ts';
import { OPERATOR_ROLES, type Operation } from '../operation.js';
import { uuidSchema } from '../common.schemas.js';
import { operatorTags } from './shared.schemas.js';
import { operatorAccountsSchema } from './users.schemas.js';

export const sessionSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['AccountID', 'AccountName', 'TimeZone', 'Email', 'Role', 'Accounts'],
  properties: {
    AccountID: uuidSchema,
    AccountName: { type: 'string' },
    TimeZone: { type: 'string', description: "The account's IANA time zone." },
    Email: { type: ['string', 'null'], description: "The user's address; null for an admin API key." },
    Role: { type: 'string', enum: OPERATOR_ROLES, description: 'An admin API key acts as an owner.' },
    Accounts: {
      ...operatorAccountsSchema,
      description:
        "The accounts the signed-in person may work in, by name, this one among them (chooseOperatorAccount switches); an admin API key's own account only.",
    },
  },
} as const;
export type OperatorSession = FromSchema<typeof sessionSchema>;

export const getOperatorSessionOperation = {
  operationId: 'getOperatorSession',
  method: 'get',
  path: '/api/v2/operator/session',
  summary: 'The signed-in operator user',
  tags: operatorTags,
  scope: 'admin',
  auth: 'session-or-key',
  roles: ['owner', 'staff'],
  responses: { 200: { description: 'The session.', schema: sessionSchema } },
} as const satisfies Operation;
