// The public surface: the operations (one file each), their shared schemas, the job catalog, the validator. Helpers
// the operation files share among themselves (partner dates, visible text, usage entry members) stay inside.
export * from './common.schemas.js';
export * from './operation.js';
export * from './operations.js';
export * from './schema-validation.js';
export * from './events.catalog.js';
export * from './webhooks.catalog.js';
export {
  FILE_CONTENT_TYPES,
  MAX_FILE_BYTES,
  productSchema,
  questionSchema,
  QUESTION_TYPES,
  type FileContentType,
  type Product,
  type Question,
  type QuestionType,
} from './partner/shared.schemas.js';
export * from './partner/list-products.js';
export * from './partner/resolve-product.js';
export * from './partner/list-available-dates.js';
export * from './partner/list-available-timeslots.js';
export * from './partner/list-partner-questions.js';
export * from './partner/list-core-questions.js';
export * from './partner/create-booking.js';
export * from './partner/get-booking.js';
export * from './partner/confirm-booking.js';
export * from './partner/cancel-booking.js';
export * from './partner/change-booking.js';
export * from './partner/sync-bookings.js';
export * from './partner/upload-file.js';
export * from './partner/webhook.schemas.js';
export * from './partner/create-webhook-endpoint.js';
export * from './partner/list-webhook-endpoints.js';
export * from './partner/update-webhook-endpoint.js';
export * from './partner/delete-webhook-endpoint.js';
export * from './partner/list-webhook-deliveries.js';
export * from './partner/replay-webhook-delivery.js';
export * from './partner/replay-webhook-deliveries.js';
export { IDEMPOTENCY_KEY_PATTERN, MAX_EXTRA_INFO_BYTES, MAX_USAGE, usageEntrySchema, type UsageEntry } from './usage/shared.schemas.js';
export * from './usage/record-usage-entry.js';
export * from './usage/record-usage-entries.js';
export * from './usage/get-usage-summary.js';
export * from './platform/publish-platform-event.js';
export { operatorTags } from './operator/shared.schemas.js';
export * from './operator/index.js';
export * from './octo/index.js';
export * from './shop/index.js';
export type * from './operation-types.js';
