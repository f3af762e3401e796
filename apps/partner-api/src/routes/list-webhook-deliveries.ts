// GET /api/v2/ota/partner/webhooks/{ID}/deliveries: the endpoint's deliveries with their attempts, newest first.
import { listWebhookDeliveriesOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listWebhookDeliveries } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountListWebhookDeliveries(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listWebhookDeliveriesOperation, async ({ params, query, auth }) => ({
    status: 200,
    body: await listWebhookDeliveries(deps, partnerOf(auth), { endpointId: params.ID, status: query.Status, limit: query.Limit, cursor: query.Cursor }),
  }));
}
