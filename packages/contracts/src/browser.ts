// The browser's entry to the contracts (the console): the operator operations and the types derived from them,
// without the ajv validator, whose module-level set-up a bundler could not leave out.
export * from './common.schemas.js';
export type { Operation, OperatorRole, OperatorRoles, Scope } from './operation.js';
export { OPERATOR_ROLES } from './operation.js';
export { FILE_CONTENT_TYPES, QUESTION_TYPES, type FileContentType, type Question, type QuestionType } from './partner/shared.schemas.js';
export * from './operator/index.js';
export type * from './operation-types.js';
export type { Booking } from './partner/create-booking.js';
export type { UsageSummary } from './usage/get-usage-summary.js';
export { SCOPES } from './operation.js';
// The booking page (apps/booking-page) reads the shop operations through the same entry.
export * from './shop/index.js';
export { MAX_FILE_BYTES } from './partner/shared.schemas.js';
