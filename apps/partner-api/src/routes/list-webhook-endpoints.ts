// GET /api/v2/ota/partner/webhooks: the caller's partner's webhook endpoints, without their secrets.
import { listWebhookEndpointsOperation } from '@backbone/contracts';
import { mountOperation, type OperationRoutes } from '@backbone/http';
import { listWebhookEndpoints } from '@backbone/use-cases';
import type { PartnerAppDeps } from '../deps.js';
import { partnerOf } from './partner-of.js';

export function mountListWebhookEndpoints(routes: OperationRoutes, deps: PartnerAppDeps): void {
  mountOperation(routes, deps, listWebhookEndpointsOperation, async ({ auth }) => ({ status: 200, body: await listWebhookEndpoints(deps, partnerOf(auth)) }));
}
