// PATCH /api/v2/ota/partner/webhooks/{ID}: change an endpoint and enable it again; another partner's endpoint is as
// unknown as a missing one (404).
import { updateWebhookEndpointOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { updateWebhookEndpoint } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountUpdateWebhookEndpoint(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, updateWebhookEndpointOperation, async ({ params, body, auth }) => ({
    status: 200,
    body: await updateWebhookEndpoint(deps, partnerOf(auth), params.ID, body),
  }));
}
