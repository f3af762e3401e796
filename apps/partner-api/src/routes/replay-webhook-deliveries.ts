// POST /api/v2/ota/partner/webhooks/{ID}/replay: every failed delivery since an instant queued again (202).
import { replayWebhookDeliveriesOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { replayWebhookDeliveries } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountReplayWebhookDeliveries(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, replayWebhookDeliveriesOperation, async ({ params, body, auth }) => ({
    status: 202,
    body: await replayWebhookDeliveries(deps, partnerOf(auth), { endpointId: params.ID, since: body.Since }),
  }));
}
