// DELETE /api/v2/ota/partner/webhooks/{ID}: another partner's endpoint is as unknown as a missing one (404).
import { deleteWebhookEndpointOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { deleteWebhookEndpoint } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountDeleteWebhookEndpoint(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, deleteWebhookEndpointOperation, async ({ params, auth }) => {
    await deleteWebhookEndpoint(deps, partnerOf(auth), params.ID);
    return { status: 204, body: undefined };
  });
}
