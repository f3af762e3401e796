// POST /api/v2/ota/partner/webhooks/{ID}/deliveries/{DeliveryID}/replay: one delivery queued again (202).
import { replayWebhookDeliveryOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { replayWebhookDelivery } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountReplayWebhookDelivery(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, replayWebhookDeliveryOperation, async ({ params, auth }) => ({
    status: 202,
    body: await replayWebhookDelivery(deps, partnerOf(auth), { endpointId: params.ID, deliveryId: params.DeliveryID }),
  }));
}
