// Every HTTP operation, one list per API and one of them all. Each app mounts its routes from its API's list, and the
// one OpenAPI document every app serves is assembled from ALL_OPERATIONS with OPENAPI_INFO.
import { cancelBookingOperation } from './partner/cancel-booking.js';
import { changeBookingOperation } from './partner/change-booking.js';
import { confirmBookingOperation } from './partner/confirm-booking.js';
import { createBookingOperation } from './partner/create-booking.js';
import { getBookingOperation } from './partner/get-booking.js';
import { listAvailableDatesOperation } from './partner/list-available-dates.js';
import { listAvailableTimeslotsOperation } from './partner/list-available-timeslots.js';
import { listCoreQuestionsOperation } from './partner/list-core-questions.js';
import { listPartnerQuestionsOperation } from './partner/list-partner-questions.js';
import { listProductsOperation } from './partner/list-products.js';
import { resolveProductOperation } from './partner/resolve-product.js';
import { syncBookingsOperation } from './partner/sync-bookings.js';
import { uploadFileOperation } from './partner/upload-file.js';
import { createWebhookEndpointOperation } from './partner/create-webhook-endpoint.js';
import { deleteWebhookEndpointOperation } from './partner/delete-webhook-endpoint.js';
import { listWebhookDeliveriesOperation } from './partner/list-webhook-deliveries.js';
import { listWebhookEndpointsOperation } from './partner/list-webhook-endpoints.js';
import { replayWebhookDeliveriesOperation } from './partner/replay-webhook-deliveries.js';
import { replayWebhookDeliveryOperation } from './partner/replay-webhook-delivery.js';
import { OCTO_OPERATIONS } from './octo/operations.js';
import { OPERATOR_OPERATIONS } from './operator/operations.js';
import { SHOP_OPERATIONS } from './shop/operations.js';
import { updateWebhookEndpointOperation } from './partner/update-webhook-endpoint.js';
import { publishPlatformEventOperation } from './platform/publish-platform-event.js';
import { getUsageSummaryOperation } from './usage/get-usage-summary.js';
import { recordUsageEntriesOperation } from './usage/record-usage-entries.js';
import { recordUsageEntryOperation } from './usage/record-usage-entry.js';

export const PARTNER_OPERATIONS = [
  listProductsOperation,
  resolveProductOperation,
  listAvailableDatesOperation,
  listAvailableTimeslotsOperation,
  listPartnerQuestionsOperation,
  listCoreQuestionsOperation,
  createBookingOperation,
  getBookingOperation,
  confirmBookingOperation,
  cancelBookingOperation,
  changeBookingOperation,
  syncBookingsOperation,
  uploadFileOperation,
  createWebhookEndpointOperation,
  listWebhookEndpointsOperation,
  updateWebhookEndpointOperation,
  deleteWebhookEndpointOperation,
  listWebhookDeliveriesOperation,
  replayWebhookDeliveryOperation,
  replayWebhookDeliveriesOperation,
] as const;

export const USAGE_OPERATIONS = [recordUsageEntryOperation, recordUsageEntriesOperation, getUsageSummaryOperation] as const;

export const PLATFORM_OPERATIONS = [publishPlatformEventOperation] as const;

export { OCTO_OPERATIONS, OPERATOR_OPERATIONS, SHOP_OPERATIONS };

/** In the order of the OpenAPI document's paths. */
export const ALL_OPERATIONS = [
  ...PARTNER_OPERATIONS,
  ...SHOP_OPERATIONS,
  ...USAGE_OPERATIONS,
  ...PLATFORM_OPERATIONS,
  ...OPERATOR_OPERATIONS,
  ...OCTO_OPERATIONS,
] as const;

/** One base URL serves every API, so each app publishes the whole document. */
export const OPENAPI_INFO = {
  title: 'Activity backbone API',
  version: '2.0.0',
  description:
    "Partner (OTA) booking API, the operators' booking pages (tag Shop, public), usage metering API, platform events, the operator console's API and OCTO (tag OCTO, under /octo), under one base URL.",
} as const;
