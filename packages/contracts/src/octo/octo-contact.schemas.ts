// OCTO's contact, on a booking and on each of its unit items: as answered, and as a request may send it.
import type { FromSchema } from 'json-schema-to-ts';
import { textSchema } from '../common.schemas.js';
import { octoTextOrNull } from './octo.schemas.js';
import { str, strOrNull } from './octo-scalars.js';

export const octoContactSchema = {
  type: 'object',
  required: ['fullName', 'firstName', 'lastName', 'emailAddress', 'phoneNumber', 'locales', 'postalCode', 'country', 'notes'],
  properties: {
    fullName: strOrNull,
    firstName: strOrNull,
    lastName: strOrNull,
    emailAddress: strOrNull,
    phoneNumber: strOrNull,
    locales: { type: 'array', items: str },
    postalCode: strOrNull,
    country: strOrNull,
    notes: strOrNull,
  },
} as const;
export type OctoContact = FromSchema<typeof octoContactSchema>;

export const octoContactRequest = {
  type: 'object',
  properties: {
    fullName: octoTextOrNull(401),
    firstName: octoTextOrNull(200),
    lastName: octoTextOrNull(200),
    emailAddress: octoTextOrNull(254),
    phoneNumber: octoTextOrNull(40),
    locales: { type: 'array', maxItems: 20, items: textSchema(35) },
    postalCode: octoTextOrNull(20),
    country: octoTextOrNull(2),
    notes: octoTextOrNull(2000),
  },
} as const;
export type OctoContactRequest = FromSchema<typeof octoContactRequest>;
