// A console user as the operator's user operations show it (list, add, disable; owners only).
import type { FromSchema } from 'json-schema-to-ts';
import { uuidSchema } from '../common.schemas.js';
import { OPERATOR_ROLES } from '../operation.js';

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
